# The register map's single source (fpga/regs/ctnn.toml): the committed generated files must
# be what the generator writes now, and the generator must reject bad maps.
add_test(NAME regs.generated_up_to_date
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/regs/gen_regs.py --check)
add_test(NAME regs.generator_rejects_bad_maps
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/regs/test_gen_regs.py)
# No address of the map (RAM base, device bases) typed by hand outside the generated files.
add_test(NAME regs.no_hand_typed_addresses
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/regs/check_addresses.py)
set_tests_properties(regs.generated_up_to_date regs.generator_rejects_bad_maps regs.no_hand_typed_addresses
                     PROPERTIES LABELS "regs")
