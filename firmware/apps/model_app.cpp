// The firmware image of an imported int8 model (ctnn_add_firmware, firmware/cmake/ctnn_firmware.cmake):
// the model's header (CTNN_MODEL_HEADER, CTNN_MODEL: ctnn-import --dtype int8) with its parameter
// blob in .rodata, a static arena of exactly plan_of<Net, int8>.arena_bytes (checked against the
// budget at compile time), and the data header CTNN_FW_DATA_HEADER written on the host by
// ctnn-fw-model-data from the same model header: quantized test inputs, labels, every image's
// host int8 output and the per-leaf CRC-32 of all images and of the first accel_images.
//
// Every image runs once on the CPU when no accelerator answers at its address (QEMU); when one does
// (the SoC), the first data::accel_images (ctnn_add_firmware's ACCEL_IMAGES) run on it. Each output's
// bytes must equal the host's; the per-leaf CRCs, continued over the images run, must equal the
// host's table for those images. On the SoC the first CTNN_FW_CPU_IMAGES images also run on the CPU
// alone, for the cycle comparison (outputs checked too); with CTNN_FW_CPU_IMAGES 0 none does (a
// large model's CPU-alone run is minutes of RTL simulation), and the fused run below takes the
// first image alone. Cycles of a run are the counter's advance
// over runtime::run minus the cycles spent in the CRC callback. On the accelerator each image runs
// with the CRC callback (every leaf's output exists, so no leaf is fused); the images that also
// ran on the CPU (the first image when none did) run once more without it, where a conv2d/linear leaf and the leaves fused after it
// (ReLU-like clamp, add, 2x2 pool) run as its jobs (runtime::fused_offload_hook). Every output must equal the host's;
// cycles_accel is the average of the fused runs (over the same images as cycles_cpu), and
// cycles_accel_unfused the average of the runs with the callback over the accelerated images.
//
// Output: the first CTNN_FW_SHOW_IMAGES images with their true and predicted label; one line per
// image "<tag>: out <i> <label> <predicted> <output bytes, hex>" (the bytes a host script compares);
// the per-leaf table (cycles per image); then
//   <tag>: accuracy <correct>/<images> = <pct>%        (with labels)
//   <tag>: match=yes images=<N> cycles_cpu=<A> cycles_accel=<B> speedup=<S> accel_busy=<C> accel_share=<P>%
//          (per image, averages; C: the accelerator's CYCLES, job start to done, summed over the
//          jobs of a fused run; P = C / B, the share of the inference spent inside the accelerator)
//   <tag>: match=yes images=<N> cycles_accel=<B> accel_busy=<C> accel_share=<P>%
//          (the same without a CPU-alone run: CTNN_FW_CPU_IMAGES 0)
//   <tag>: match=yes images=<N> cycles_cpu=<A> accelerator=absent
// Exit codes: 0 all equal; 2 the parameter blob differs from the host's; 3 a run failed (the leaf
// and the cause are printed) or the accelerator took no leaf; 4 an output or a CRC differs.
#include <stddef.h>
#include <stdint.h>

#include "ctnn/accel/probe.hpp"
#include "ctnn/analysis/budget.hpp"
#include "ctnn/memory/planner.hpp"
#include "fw_report.hpp"
#include CTNN_MODEL_HEADER
#include CTNN_FW_DATA_HEADER

#ifndef CTNN_FW_TAG
#define CTNN_FW_TAG "model"
#endif
#ifndef CTNN_FW_CPU_IMAGES
#define CTNN_FW_CPU_IMAGES 2
#endif
#ifndef CTNN_FW_SHOW_IMAGES
#define CTNN_FW_SHOW_IMAGES 5
#endif

namespace {

using namespace ctnn_fw::report;
using model = CTNN_MODEL;
using Net = model::network;
namespace data = ctnn_fw_model_data;

static_assert(model::dtype == ctnn::dtype::int8,
              "ctnn_add_firmware: the model must be imported in int8 (ctnn_add_model(... DTYPE int8 CALIBRATION ...))");
constexpr auto& plan = ctnn::memory::plan_of<Net, ctnn::dtype::int8>;
static_assert(data::leaf_count == Net::leaf_count && data::arena_bytes == plan.arena_bytes &&
                  data::params_bytes == model::params_bytes && data::input_elems == Net::input_shape.elems() &&
                  data::output_elems == Net::output_shape.elems(),
              "ctnn_add_firmware: the data header was generated from another model (rebuild ctnn-fw-model-data)");
#ifdef CTNN_FW_ARENA_BUDGET
static_assert(ctnn::fits<Net, int8_t>(CTNN_FW_ARENA_BUDGET));
#endif

constexpr int32_t leaves = Net::leaf_count;
constexpr int32_t in_elems = data::input_elems;
constexpr int32_t out_elems = data::output_elems;
constexpr const char* tag = CTNN_FW_TAG;

alignas(16) uint8_t arena[plan.arena_bytes];
sample cpu_samples[leaves], acc_samples[leaves];

/// The CRC callback's user data: the samples it continues and the cycles it took.
struct crc_sink {
  sample* samples;
  uint64_t cycles;
};
void record(void* user, int32_t leaf, const void* out, size_t bytes) {
  auto* s = static_cast<crc_sink*>(user);
  const uint64_t c0 = ctnn_cycles();
  record_crc(s->samples, leaf, out, bytes);
  s->cycles += ctnn_cycles() - c0;
}

/// Runs image `img` with `hook` (samples: per-leaf counters and CRCs); cycles: the run's, without
/// the CRC callback's.
rt::run_status run_image(int32_t img, profiler& hook, uint64_t& cycles, bool with_crc = true) {
  int8_t* in = reinterpret_cast<int8_t*>(arena + plan.offset_of(0));
  const int8_t* src = data::inputs + img * in_elems;
  for (int32_t i = 0; i < in_elems; ++i) in[i] = src[i];
  crc_sink sink{hook.samples, 0};
  const uint64_t c0 = ctnn_cycles();
  const rt::run_status s = rt::run<Net, int8_t>(arena, sizeof arena, model::params(), model::params_bytes,
                                                rt::backend::optimized, hook, with_crc ? &record : nullptr, &sink);
  cycles = ctnn_cycles() - c0 - sink.cycles;
  return s;
}

const int8_t* output() { return reinterpret_cast<const int8_t*>(arena + plan.offset_of(Net::output_tensor)); }

/// The class with the largest output (the first of equals).
int32_t argmax(const int8_t* y) {
  int32_t best = 0;
  for (int32_t i = 1; i < out_elems; ++i)
    if (y[i] > y[best]) best = i;
  return best;
}

bool output_matches(int32_t img) {
  const int8_t* y = output();
  const int8_t* want = data::outputs + img * out_elems;
  for (int32_t i = 0; i < out_elems; ++i)
    if (y[i] != want[i]) return false;
  return true;
}

void put_class(int32_t c) {
  put_dec(static_cast<uint32_t>(c));
  if (data::class_names[0] != nullptr) {
    put(" (");
    put(data::class_names[c]);
    put(")");
  }
}

void put_hex_bytes(const int8_t* y) {
  static const char digits[] = "0123456789abcdef";
  for (int32_t i = 0; i < out_elems; ++i) {
    const auto b = static_cast<uint8_t>(y[i]);
    ctnn_console_putc(digits[b >> 4]);
    ctnn_console_putc(digits[b & 0xFu]);
  }
}

/// a / b as a percentage with two decimals
int run_model() {
  put(tag);
  put(": ");
  put(model::name);
  put(" int8, arena ");
  put_dec(sizeof arena);
  put(" bytes");
#ifdef CTNN_FW_ARENA_BUDGET
  put(" (budget ");
  put_dec(static_cast<uint64_t>(CTNN_FW_ARENA_BUDGET));
  put(")");
#endif
  put(", parameters ");
  put_dec(model::params_bytes);
  put(" bytes in .rodata, ");
  put_dec(static_cast<uint32_t>(data::images));
  put(" images\n");
  const uint32_t pcrc = ctnn::crc32(model::params(), model::params_bytes);
  if (pcrc != data::params_crc) {
    put(tag);
    put(": FAIL the parameter blob differs from the host's: crc ");
    put_crc(pcrc);
    put(" (host ");
    put_crc(data::params_crc);
    put(")\n");
    return 2;
  }

  const bool has_accel = ctnn::accel::probe_present();
  accel_hook accel;
  if (has_accel) {
    accel.init();
    put_accel_found(tag, accel);
    put(tag);
    put(": the accelerator runs images 0 to ");
    put_dec(static_cast<uint32_t>(data::accel_images - 1));
    ctnn_console_putc('\n');
  } else {
    put(tag);
    put(": no accelerator: every image on the CPU\n");
  }
  // the images this run covers: all on the CPU alone, the first accel_images with an accelerator
  const int32_t run_images = has_accel ? data::accel_images : data::images;
  const int32_t cpu_images = has_accel ? (CTNN_FW_CPU_IMAGES < run_images ? CTNN_FW_CPU_IMAGES : run_images)
                                       : data::images;
  // the accelerated images also run fused: those that ran on the CPU, at least the first
  const int32_t fused_limit = has_accel ? (cpu_images > 0 ? cpu_images : 1) : 0;
  profiler on_cpu{nullptr, cpu_samples};
  profiler on_accel{&accel, acc_samples};
  profiler fused_accel{&accel, nullptr};  // no counters, no callback: fused pairs
  uint64_t cycles_cpu = 0, cycles_accel = 0, cycles_unfused = 0;
  uint64_t busy_fused = 0;  // accelerator CYCLES (job start to done) summed over the fused runs
  int32_t fused_images = 0;
  uint32_t correct = 0, equal = 0;
  bool match = true;
  for (int32_t img = 0; img < run_images; ++img) {
    uint64_t c_cpu = 0, c_acc = 0;
    bool ok_cpu = true;
    if (img < cpu_images) {
      const rt::run_status s = run_image(img, on_cpu, c_cpu);
      if (!s.ok()) return report_failure<Net>(tag, "CPU", s, nullptr), 3;
      cycles_cpu += c_cpu;
      ok_cpu = output_matches(img);
    }
    bool ok_unfused = true;
    if (has_accel) {
      uint64_t c_unfused = 0;
      rt::run_status s = run_image(img, on_accel, c_unfused);
      if (!s.ok()) return report_failure<Net>(tag, "accelerated", s, &accel), 3;
      cycles_unfused += c_unfused;
      c_acc = c_unfused;
      if (img < fused_limit) {
        ok_unfused = output_matches(img);
        const uint64_t busy_before = accel.device_cycles;
        s = run_image(img, fused_accel, c_acc, false);
        if (!s.ok()) return report_failure<Net>(tag, "accelerated (fused)", s, &accel), 3;
        busy_fused += accel.device_cycles - busy_before;
        cycles_accel += c_acc;
        ++fused_images;
      }
    }
    const bool ok = ok_cpu && ok_unfused && output_matches(img);
    equal += ok ? 1u : 0u;
    match = match && ok;
    const int32_t predicted = argmax(output());
    if (data::has_labels && predicted == data::labels[img]) ++correct;
    if (img < CTNN_FW_SHOW_IMAGES) {
      put(tag);
      put(": image ");
      put_dec(static_cast<uint32_t>(img));
      if (data::has_labels) {
        put(": true ");
        put_class(data::labels[img]);
        put(", predicted ");
      } else {
        put(": predicted ");
      }
      put_class(predicted);
      if (img < cpu_images) {
        put(", cycles_cpu=");
        put_dec(c_cpu);
      }
      if (has_accel) {
        put(", cycles_accel=");
        put_dec(c_acc);
      }
      put(ok ? ", output = host int8\n" : ", output DIFFERS from host int8\n");
    }
    put(tag);
    put(": out ");
    put_dec(static_cast<uint32_t>(img));
    put(" ");
    put_dec(data::has_labels ? data::labels[img] : 0u);
    put(" ");
    put_dec(static_cast<uint32_t>(predicted));
    put(" ");
    put_hex_bytes(output());
    ctnn_console_putc('\n');
  }
  if (has_accel && accel.leaves == 0) {
    put(tag);
    put(": FAIL the accelerator is present but took no leaf\n");
    return 3;
  }

  // ---- per-leaf table: cycles per image; CRCs over the images run (the CPU's when it ran them all) ----
  const sample* checked = has_accel ? acc_samples : cpu_samples;
  const uint32_t* want_crc = has_accel ? data::leaf_crc_accel : data::leaf_crc;
  put(tag);
  put(": leaf name                              type              cycles_cpu/img cycles_accel/img accel_busy/img crc        match\n");
  for (int32_t i = 0; i < leaves; ++i) {
    const ctnn::row& r = Net::layer(i);
    const auto ui = static_cast<size_t>(i);
    const bool ok = checked[ui].crc == want_crc[ui];
    match = match && ok;
    put(tag);
    put(": ");
    put_dec(static_cast<uint32_t>(i), 4);
    put(" ");
    put_text(r.name != nullptr ? r.name : "-", 33);
    put(" ");
    put_text(r.type, 17);
    if (cpu_images > 0)
      put_dec(cpu_samples[ui].cycles / static_cast<uint64_t>(cpu_images), 15);
    else
      put("              -");
    if (has_accel) {
      put_dec(acc_samples[ui].cycles / static_cast<uint64_t>(run_images), 17);
      put_dec(acc_samples[ui].busy / static_cast<uint64_t>(run_images), 15);
    } else {
      put("                -              -");
    }
    put(" ");
    put_crc(want_crc[ui]);
    put(ok ? " yes" : " NO");
    if (!ok) {
      put(" got=");
      put_crc(checked[ui].crc);
    }
    ctnn_console_putc('\n');
  }
  if (has_accel) {
    put(tag);
    put(": accelerator jobs ");
    put_dec(accel.jobs);
    put(", leaves offloaded ");
    put_dec(accel.leaves);
    put(", leaves fused into conv/linear jobs ");
    put_dec(accel.fused);
    put(", busy cycles ");
    put_dec(accel.device_cycles);
    put(", MACs ");
    put_dec(accel.macs);
    ctnn_console_putc('\n');
  }
  put(tag);
  put(": outputs equal to host int8 on ");
  put_dec(equal);
  put("/");
  put_dec(static_cast<uint32_t>(run_images));
  put(" images\n");
  if (data::has_labels) {
    put(tag);
    put(": accuracy ");
    put_dec(correct);
    put("/");
    put_dec(static_cast<uint32_t>(run_images));
    put(" = ");
    put_percent(correct, static_cast<uint64_t>(run_images));
    ctnn_console_putc('\n');
  }
  if (has_accel) {
    put(tag);
    put(": cycles_accel_unfused=");
    put_dec(cycles_unfused / static_cast<uint64_t>(run_images));
    put(" (per image, every leaf on its own)\n");
  }
  put(tag);
  put(": match=");
  put(match ? "yes" : "no");
  put(" images=");
  put_dec(static_cast<uint32_t>(run_images));
  const uint64_t per_cpu = cpu_images > 0 ? cycles_cpu / static_cast<uint64_t>(cpu_images) : 0;
  if (cpu_images > 0) {
    put(" cycles_cpu=");
    put_dec(per_cpu);
  }
  if (has_accel) {
    const uint64_t per_accel = cycles_accel / static_cast<uint64_t>(fused_images > 0 ? fused_images : 1);
    put(" cycles_accel=");
    put_dec(per_accel);
    if (cpu_images > 0) {
      put(" speedup=");
      put_ratio(per_cpu, per_accel);
    }
    put(" accel_busy=");
    put_dec(busy_fused / static_cast<uint64_t>(fused_images > 0 ? fused_images : 1));
    put(" accel_share=");
    put_percent(busy_fused, cycles_accel);
  } else {
    put(" accelerator=absent");
  }
  ctnn_console_putc('\n');
  return match ? 0 : 4;
}

}  // namespace

extern "C" int ctnn_test_run(void) { return run_model(); }
