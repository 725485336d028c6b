# find_package(ctnn): the header-only library ctnn::ctnn, the importer ctnn::ctnn-import (when the
# package was built with it) and ctnn_add_model / ctnn_add_model_runner (ctnn_model.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/ctnnTargets.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/ctnn_model.cmake)
