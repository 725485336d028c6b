# generated — do not edit. Source: fpga/regs/ctnn.toml, generator: fpga/regs/gen_regs.py
# The RAM of the SoC map for the firmware build (the hex image's address offset).
set(CTNN_RAM_BASE 0x80000000)
set(CTNN_RAM_SIZE 0x00100000)
