// The report's headline (src/analysis/headline.h): the fastest variant, its speed-up over naive,
// one reason per slow variant weighed by the time it explains; on the shipped H200 study and on
// constructed variants where each rule of the choice decides.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/headline.h"
#include "pipeline/report_inputs.h"
#include "report_support.h"
#include "study/analysis/report_conclusions.h"
#include "study/render/report.h"
#include "study/render/report_headline.h"
#include "test_support.h"

namespace attnprof {
namespace {

const std::string kStudy = std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study";

ReportData load(const std::vector<std::string>& inputs, const std::string& region = {}) {
  return testing::load_report_inputs(inputs, region);
}

const HeadlineReason* reason_of(const Headline& h, const std::string& variant) {
  for (const HeadlineReason& r : h.slow)
    if (r.variant == variant) return &r;
  return nullptr;
}

RegionFacts facts_with(std::initializer_list<std::pair<KernelClass, double>> class_us,
                       double busy_us, double wall_us = 0) {
  RegionFacts f;
  for (auto [c, us] : class_us) f.by_class[static_cast<size_t>(c)].time_ns.median = us * 1e3;
  f.gpu_busy_ns.median = busy_us * 1e3;
  f.wall_ns.median = wall_us * 1e3;
  return f;
}

TEST(Headline, ShippedStudyNamesCudnnFastestAndAReasonPerSlowVariant) {
  const ReportData d = load({kStudy});
  const std::optional<Headline> h = compute_headline(headline_variants(d));
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->fastest, "sdpa-cudnn");
  EXPECT_NEAR(h->fastest_ns, 101.7e3, 0.1e3);  // summary.json's GPU median, 0.1017 ms
  EXPECT_EQ(h->as_fast, std::vector<std::string>{"sdpa-auto (cudnn)"});  // 101.9 µs
  EXPECT_EQ(h->baseline, "naive");
  EXPECT_TRUE(h->baseline_is_naive);
  EXPECT_NEAR(h->speedup, 2.2820 / 0.1017, 0.05);  // 22.4
  // Slowest first; the two ties are not slow.
  ASSERT_EQ(h->slow.size(), 5u);
  EXPECT_EQ(h->slow[0].variant, "sdpa-math");
  EXPECT_EQ(h->slow[4].variant, "sdpa-flash");

  // sdpa-math is unfused too, but its FP32 GEMMs (1013.6 + 823.5 µs in the typical region) are
  // more than a quarter of its gap to cuDNN: the upcast is what sets it apart from naive.
  const HeadlineReason* math = reason_of(*h, "sdpa-math");
  ASSERT_NE(math, nullptr);
  EXPECT_EQ(math->finding_id, "precision-upcast");
  ASSERT_TRUE(math->explained_ns.has_value());
  EXPECT_NEAR(*math->explained_ns, 1837.1e3, 5e3);
  EXPECT_NEAR(math->times_slower, 5.1097 / 0.1017, 0.2);

  // naive's hidden copy (258 µs) is an eighth of its gap: the unfused passes (mul, copy,
  // masked_fill, softmax: 1.99 ms) are its reason.
  const HeadlineReason* naive = reason_of(*h, "naive");
  ASSERT_NE(naive, nullptr);
  EXPECT_EQ(naive->finding_id, "not-fused");
  ASSERT_TRUE(naive->explained_ns.has_value());
  EXPECT_NEAR(*naive->explained_ns, (251.0 + 258.2 + 734.5 + 745.3) * 1e3, 10e3);
  EXPECT_EQ(reason_of(*h, "inplace")->finding_id, "not-fused");

  // The upcast's GEMMs (1.84 ms) are not most of sdpa-math's 5.0 ms gap: the unfused passes over
  // the other kernels (3.32 ms, none of them a GEMM) make up the rest, and both are said.
  EXPECT_EQ(math->also_finding_id, "not-fused");
  ASSERT_TRUE(math->also_explained_ns.has_value());
  EXPECT_NEAR(*math->also_explained_ns, 3.32e6, 0.01e6);
  EXPECT_GE(*math->explained_ns + *math->also_explained_ns,
            kHeadlineMost * (math->time_ns - h->fastest_ns));

  // The fused kernels slower than cuDNN have no finding that explains time: their main kernel is
  // set beside cuDNN's, by what the names tell of the GPU generation each was written for.
  const HeadlineReason* flash = reason_of(*h, "sdpa-flash");
  ASSERT_NE(flash, nullptr);
  EXPECT_EQ(flash->finding_id, "");
  EXPECT_EQ(flash->main_kernel, "flash_fwd_kernel<...>");
  EXPECT_NEAR(flash->main_kernel_ns, 158.0e3, 1e3);
  ASSERT_TRUE(flash->contrast.has_value());
  EXPECT_EQ(flash->contrast->generation.family, "FlashAttention-2");
  EXPECT_EQ(flash->contrast->generation.sm, 80);
  EXPECT_FALSE(flash->contrast->generation.wgmma);
  EXPECT_EQ(flash->contrast->fastest_generation.sm, 90);
  EXPECT_TRUE(flash->contrast->fastest_generation.wgmma);
  const HeadlineReason* efficient = reason_of(*h, "sdpa-efficient");
  EXPECT_EQ(efficient->main_kernel, "fmha_cutlassF_bf16_aligned_64x64_rf_sm80");
  ASSERT_TRUE(efficient->contrast.has_value());
  EXPECT_EQ(efficient->contrast->generation.sm, 80);
  EXPECT_TRUE(efficient->contrast->generation.sm_in_name);
  EXPECT_EQ(efficient->contrast->generation.basis, "");
  const HeadlineWords w = headline_words(*h, "GPU median per call");
  for (const HeadlineWords::Slow& s : w.slow) {
    if (s.variant == "sdpa-efficient") {
      EXPECT_NE(s.reason.find("is built for sm80 (its name says so), where the fastest's, "
                              "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma"),
                std::string::npos)
          << s.reason;
    }
  }
}

TEST(Headline, AFindingThatCoversLittleOfTheGapIsNotTheReason) {
  using K = KernelClass;
  RegionFacts fast = facts_with({{K::kFusedAttention, 100}}, 100);
  fast.main_kernel = MainKernel{"cudnn_sm90",
                                "cudnn_generated_fort_native_sdpa_sm90_wgmma_k",
                                "",
                                std::nullopt,
                                "",
                                std::nullopt,
                                0,
                                0,
                                0,
                                100000};
  // A 1000 µs gap of which a copy covers 100 µs and nothing else any: the kernels are compared.
  RegionFacts slow = facts_with({{K::kFusedAttention, 1000}, {K::kCopy, 100}}, 1100);
  slow.main_kernel = MainKernel{
      "fmha_sm80", "fmha_cutlassF_bf16_sm80", "", std::nullopt, "", std::nullopt, 0, 0, 0, 1000000};
  const std::optional<Headline> h =
      compute_headline({{"fast", 100e3, {}, {fast}}, {"slow", 1100e3, {"hidden-copy"}, {slow}}});
  ASSERT_TRUE(h.has_value());
  const HeadlineReason& r = h->slow[0];
  EXPECT_EQ(r.finding_id, "");
  ASSERT_TRUE(r.covered_share.has_value());
  EXPECT_DOUBLE_EQ(*r.covered_share, 0.1);
  ASSERT_TRUE(r.contrast.has_value());
  const std::string words = headline_words(*h, "x").slow[0].reason;
  EXPECT_EQ(words.rfind("its findings cover only 10 % of its gap to the fastest; its main "
                        "kernel, fmha_sm80 (1.00 ms), is built for sm80",
                        0),
            0u)
      << words;
}

TEST(Headline, ConstructedVariantsExerciseEachRuleOfTheChoice) {
  using K = KernelClass;
  std::vector<HeadlineVariant> v(6);
  v[0] = {"fused", 100e3, {"persistent-kernel"}, {facts_with({{K::kFusedAttention, 100}}, 100)}};
  // Unfused, with a copy that takes 30 % of its 1000 µs gap: the copy is the reason.
  v[1] = {"copying",
          1100e3,
          {"hidden-copy", "not-fused"},
          {facts_with({{K::kGemm, 200}, {K::kCopy, 300}, {K::kSoftmax, 600}}, 1100)}};
  // The same with a copy of 10 % of the gap: unfused attention is.
  v[2] = {"unfused",
          1100e3,
          {"hidden-copy", "not-fused"},
          {facts_with({{K::kGemm, 200}, {K::kCopy, 100}, {K::kSoftmax, 800}}, 1100)}};
  // No trace to weigh with: the first finding that explains time, unweighed.
  v[3] = {"untraced", 400e3, {"low-occupancy", "mask-rebuilt", "not-fused"}, {}};
  // The GPU idles while the CPU works: wall minus busy.
  v[4] = {"cpu", 300e3, {"cpu-side-cost"}, {facts_with({{K::kFusedAttention, 90}}, 90, 300)}};
  v[5] = {"failed", std::nullopt, {"hidden-copy"}, {}};
  const std::optional<Headline> h = compute_headline(v);
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->fastest, "fused");
  // No variant is named naive: the slowest is the baseline, and the headline says so.
  EXPECT_FALSE(h->baseline_is_naive);
  EXPECT_EQ(h->baseline, "copying");  // the first of the two slowest
  EXPECT_DOUBLE_EQ(h->speedup, 11.0);
  ASSERT_EQ(h->slow.size(), 4u);  // "failed" has no time
  EXPECT_EQ(reason_of(*h, "copying")->finding_id, "hidden-copy");
  EXPECT_DOUBLE_EQ(*reason_of(*h, "copying")->explained_ns, 300e3);
  EXPECT_EQ(reason_of(*h, "unfused")->finding_id, "not-fused");
  EXPECT_DOUBLE_EQ(*reason_of(*h, "unfused")->explained_ns, 900e3);  // softmax + copy
  EXPECT_EQ(reason_of(*h, "untraced")->finding_id, "mask-rebuilt");
  EXPECT_FALSE(reason_of(*h, "untraced")->explained_ns.has_value());
  EXPECT_EQ(reason_of(*h, "cpu")->finding_id, "cpu-side-cost");
  EXPECT_DOUBLE_EQ(*reason_of(*h, "cpu")->explained_ns, 210e3);
  EXPECT_EQ(reason_of(*h, "failed"), nullptr);

  const HeadlineWords w = headline_words(*h, "GPU median per call");
  bool untraced_said = false;
  for (const HeadlineWords::Slow& s : w.slow)
    if (s.variant == "untraced")
      untraced_said = s.reason ==
                      "the mask, rebuilt on every call (its first finding that "
                      "explains time; no trace read to weigh them)";
  EXPECT_TRUE(untraced_said);
  EXPECT_NE(w.lead.find("11.0× faster than the slowest, copying (1.10 ms); the study has no "
                        "naive variant"),
            std::string::npos)
      << w.lead;

  // A tie within 10 % is as fast, not slow; nothing timed, no headline.
  std::vector<HeadlineVariant> tie = {{"a", 100e3, {}, {}}, {"naive", 109e3, {"not-fused"}, {}}};
  const std::optional<Headline> t = compute_headline(tie);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->as_fast, std::vector<std::string>{"naive"});
  EXPECT_TRUE(t->slow.empty());
  EXPECT_TRUE(t->baseline_is_naive);
  EXPECT_FALSE(compute_headline({{"x", std::nullopt, {}, {}}}).has_value());
}

// The headline names a finding in its catalog entry's words: slow collectives, weighed by the
// communication kernels' time, which covers the whole gap.
TEST(Headline, AFindingIsSaidInItsCatalogsWords) {
  using K = KernelClass;
  const std::optional<Headline> h = compute_headline(
      {{"fused", 100e3, {}, {facts_with({{K::kFusedAttention, 100}}, 100)}},
       {"collectives",
        500e3,
        {"low-occupancy", "low-bus-bandwidth"},
        {facts_with({{K::kFusedAttention, 100}, {K::kCommunication, 400}}, 500)}}});
  ASSERT_TRUE(h.has_value());
  ASSERT_EQ(h->slow.size(), 1u);
  EXPECT_EQ(h->slow[0].finding_id, "low-bus-bandwidth");
  EXPECT_EQ(headline_words(*h, "x").slow[0].reason,
            "collectives far below the GPUs' link bandwidth: they take 400.0 µs of its 500.0 µs of "
            "GPU time per region");
}

TEST(Headline, LeadsTheReportInHtmlAndMarkdown) {
  const ReportData d = load({kStudy});
  const std::string html = render_report_html(d);
  const size_t headline = html.find(R"(<section class="card headline" id="headline">)");
  ASSERT_NE(headline, std::string::npos);
  EXPECT_LT(headline, html.find(R"(id="table")"));  // before the table
  EXPECT_NE(html.find("<b>sdpa-cudnn</b> is the fastest: 101.7 µs GPU median per call, 22.4× "
                      "faster than naive (2.28 ms). As fast (within 10 %): sdpa-auto (cudnn)."),
            std::string::npos);
  EXPECT_NE(
      html.find(
          R"(<li data-variant="sdpa-math"><b>sdpa-math</b> <span class="slower">50.2× slower (5.11 ms)</span>: the FP32 upcast: its GEMMs run in FP32 on CUDA cores, 1.84 ms of its 5.16 ms of GPU time per region; and unfused attention: softmax, mask, elementwise and copy passes outside its GEMMs, 3.32 ms per region</li>)"),
      std::string::npos);

  const std::string md = render_report_markdown(d);
  const size_t lead = md.find(
      "**sdpa-cudnn** is the fastest: 101.7 µs GPU median per call, 22.4× "
      "faster than naive \\(2.28 ms\\).");
  ASSERT_NE(lead, std::string::npos) << md.substr(0, 600);
  EXPECT_LT(lead, md.find("| variant |"));
  EXPECT_NE(md.find("- **naive** 22.4× slower \\(2.28 ms\\): unfused attention"),
            std::string::npos);

  // Plain traces: timed by their median GPU busy time per region; no naive among them.
  const ReportData traces = load(
      {testing::fixture("study_sdpa-math.json.gz"), testing::fixture("study_sdpa-flash.json.gz")},
      "forward");
  const std::string tmd = render_report_markdown(traces);
  EXPECT_NE(tmd.find("**study_sdpa-flash** is the fastest:"), std::string::npos) << tmd;
  EXPECT_NE(tmd.find("median GPU busy per region"), std::string::npos);
  EXPECT_NE(tmd.find("the study has no naive variant"), std::string::npos);
  EXPECT_NE(tmd.find("- **study_sdpa-math**"), std::string::npos);
}

// The fixtures' study traces are named study_VARIANT: study_naive is the study's naive variant,
// where the headline once said "the study has no naive variant" beside it. Two ranks of HTA's
// trace within 10 % of each other tie: no speed-up over "the slowest" is claimed.
TEST(Headline, TracesNamedAfterTheirVariantFindNaiveAndTiesClaimNoSpeedup) {
  const ReportData study =
      load({testing::fixture("study_sdpa-flash.json.gz"), testing::fixture("study_naive.json.gz"),
            testing::fixture("study_sdpa-cudnn.json.gz")},
           "forward");
  const std::string md = render_report_markdown(study);
  EXPECT_NE(md.find("**study_sdpa-cudnn** is the fastest: 100.9 µs median GPU busy per region, "
                    "22.5× faster than naive \\(study_naive, 2.27 ms\\)."),
            std::string::npos)
      << md.substr(0, 600);
  EXPECT_EQ(md.find("no naive variant"), std::string::npos);

  const ReportData ranks = load({testing::fixture("foreign/hta_nccl_rank0.json.gz"),
                                 testing::fixture("foreign/hta_nccl_rank1.json.gz")});
  const std::string rmd = render_report_markdown(ranks);
  EXPECT_NE(rmd.find("**hta_nccl_rank0** is the fastest: 273.83 ms median GPU busy per region. "
                     "As fast \\(within 10 %\\): hta_nccl_rank1."),
            std::string::npos)
      << rmd.substr(0, 600);
  EXPECT_EQ(rmd.find("faster than the slowest"), std::string::npos);
}

// Traces are compared by their GPU busy time, which holds none of the GPU's idle: the eager
// Llama's 8.85 ms of waiting for launches once "explained" its 229 µs more GPU time. Its reason
// is its unfused attention, weighed by the chains' own work outside their GEMMs (181.1 µs), not
// by every elementwise kernel of the model.
TEST(Headline, ATracesIdleExplainsNoneOfItsGpuTime) {
  const ReportData d = load({testing::fixture("models/llama-prefill-eager.json.gz"),
                             testing::fixture("models/llama-prefill-sdpa.json.gz")});
  const std::optional<Headline> h = compute_headline(headline_variants(d));
  ASSERT_TRUE(h);
  EXPECT_EQ(h->fastest, "llama-prefill-sdpa");
  const HeadlineReason* eager = reason_of(*h, "llama-prefill-eager");
  ASSERT_NE(eager, nullptr);
  EXPECT_EQ(eager->finding_id, "not-fused");
  ASSERT_TRUE(eager->explained_ns);
  EXPECT_NEAR(*eager->explained_ns, 181.1e3, 0.1e3);
  // Most of the gap (607.1 - 378.0 µs), and less than the region's GPU time.
  EXPECT_GT(*eager->explained_ns, kHeadlineMost * (eager->time_ns - h->fastest_ns));
  EXPECT_LT(*eager->explained_ns, eager->time_ns);
}

// Traces of different workloads: mistral's decode step reads 256 keys (its sliding window),
// llama's 528; the gap is that difference, and the headline says so rather than pin it on a
// finding or a kernel of mistral's (tests/data/models).
TEST(Headline, ATraceOfAnotherWorkloadIsNotLikeForLike) {
  const ReportData d = load({testing::fixture("models/llama-decode-sdpa.json.gz"),
                             testing::fixture("models/mistral-decode-sdpa.json.gz")});
  ASSERT_TRUE(d.conclusions.headline);
  const HeadlineReason* mistral = reason_of(*d.conclusions.headline, "mistral-decode-sdpa");
  ASSERT_NE(mistral, nullptr);
  ASSERT_EQ(mistral->mismatches.size(), 1u);
  EXPECT_NE(mistral->mismatches[0].find("16x1x256x64 vs 16x1x528x64"), std::string::npos)
      << mistral->mismatches[0];
  const std::string md = render_report_markdown(d);
  EXPECT_NE(md.find("not like for like with the fastest"), std::string::npos) << md.substr(0, 800);
}

TEST(Headline, ForwardAndBackwardTimesAddUp) {
  using K = KernelClass;
  // A copy in each pass: 100 µs forward and 200 µs backward explain 300 µs of a 1000 µs gap.
  std::vector<HeadlineVariant> v = {
      {"fused", 100e3, {}, {facts_with({{K::kFusedAttention, 40}}, 40)}},
      {"copying",
       1100e3,
       {"not-fused", "hidden-copy"},
       {facts_with({{K::kCopy, 100}, {K::kSoftmax, 300}}, 400),
        facts_with({{K::kCopy, 200}, {K::kElementwise, 300}}, 700)}}};
  const std::optional<Headline> h = compute_headline(v);
  ASSERT_TRUE(h.has_value());
  ASSERT_EQ(h->slow.size(), 1u);
  EXPECT_EQ(h->slow[0].finding_id, "hidden-copy");
  EXPECT_DOUBLE_EQ(*h->slow[0].explained_ns, 300e3);
  EXPECT_DOUBLE_EQ(*h->slow[0].region_ns, 1100e3);
}

// The backward study beside the shipped run (examples/h200-study/backward): read with its
// traces, in the page and the Markdown with its headline, table and findings.
TEST(BackwardStudy, ShippedStudyShowsItsTableFindingsAndHeadline) {
  const ReportData d = load({kStudy});
  ASSERT_TRUE(d.backward.has_value());
  ASSERT_EQ(d.backward->run.points.size(), 1u);
  EXPECT_TRUE(d.backward->run.points[0].problem.backward);
  ASSERT_EQ(d.backward->facts.size(), 7u);
  for (const auto& passes : d.backward->facts) EXPECT_EQ(passes.size(), 2u);  // forward, backward

  const std::optional<Headline> h = compute_headline(headline_variants(*d.backward));
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->fastest, "sdpa-cudnn");
  EXPECT_NEAR(h->speedup, 4.80 / 0.3937, 0.05);  // summary.json: 4.80 ms and 393.7 µs
  const HeadlineReason* math = reason_of(*h, "sdpa-math");
  ASSERT_NE(math, nullptr);
  EXPECT_EQ(math->finding_id, "precision-upcast");
  // Its FP32 GEMMs in both passes: more than the forward's 1.84 ms alone.
  EXPECT_GT(*math->explained_ns, 3e6);

  const std::string html = render_report_html(d);
  const size_t section = html.find(R"(<section class="card" id="backward">)");
  ASSERT_NE(section, std::string::npos);
  EXPECT_NE(html.find(R"(<li><a href="#backward">The backward study</a></li>)"), std::string::npos);
  const std::string backward = html.substr(section, html.find("</section>", section) - section);
  EXPECT_NE(backward.find("<b>sdpa-cudnn</b> is the fastest: 393.7 µs GPU median per call "
                          "(forward and backward), 12.2× faster than naive (4.80 ms)."),
            std::string::npos)
      << backward.substr(0, 2000);
  EXPECT_NE(backward.find(R"(<table class="study-table" id="backward-table-0">)"),
            std::string::npos);
  EXPECT_NE(backward.find("<th class=\"num\">kernels/bwd</th>"), std::string::npos);
  EXPECT_NE(backward.find(R"(id="backward-note-0-1")"), std::string::npos);
  EXPECT_NE(backward.find("in the backward: aten::masked_fill copies its input"),
            std::string::npos);
  // The run's own table keeps its id; the backward's ids do not collide with it.
  EXPECT_EQ(html.find(R"(id="study-table")"), html.rfind(R"(id="study-table")"));

  const std::string md = render_report_markdown(d);
  const size_t md_section = md.find("\n## The backward study\n");
  ASSERT_NE(md_section, std::string::npos);
  const std::string md_backward = md.substr(md_section);
  EXPECT_NE(md_backward.find("**sdpa-cudnn** is the fastest: 393.7 µs"), std::string::npos);
  EXPECT_NE(
      md_backward.find("\n| naive | 5 | 8 | `softmax_warp_forward<...>` | 1 \\(DtoD\\) | 4795.2 |"),
      std::string::npos)
      << md_backward.substr(0, 3000);
  EXPECT_NE(md_backward.find("- naive: **hidden-copy** in the backward: "), std::string::npos);
  // Each finding id once in the table's findings column.
  EXPECT_NE(md_backward.find("| not-fused, hidden-copy, persistent-kernel, cuLaunchKernelEx |"),
            std::string::npos);
}

// Findings that explain time first (docs/METRICS.md, "Findings"), the most time first, the
// headline's reason leading; before, they came in the rules' order (naive's 255 µs copy before
// its 1.96 ms of unfused passes).
TEST(Headline, FindingsAreRankedByTheTimeTheyExplain) {
  using K = KernelClass;
  const std::vector<std::string> ids = {"hidden-copy", "persistent-kernel", "not-fused",
                                        "mask-rebuilt", "cuLaunchKernelEx"};
  const RegionFacts f = facts_with({{K::kCopy, 255}, {K::kSoftmax, 739}, {K::kMask, 20}}, 1200);
  EXPECT_EQ(rank_findings(ids, {f}), (std::vector<size_t>{2, 0, 3, 1, 4}));
  // Unweighed: the rules' order, time-explaining ones first.
  EXPECT_EQ(rank_findings(ids, {}), (std::vector<size_t>{0, 2, 3, 1, 4}));

  const std::string md = render_report_markdown(load({kStudy}));
  const size_t notes = md.find("What the traces show");
  const std::string forward = md.substr(notes, md.find("\n## The backward study") - notes);
  EXPECT_LT(forward.find("- naive: **not-fused**"), forward.find("- naive: **hidden-copy**"));
  // sdpa-math: the upcast, the headline's reason, leads the unfused passes that take more time.
  EXPECT_LT(forward.find("- sdpa-math: **precision-upcast**"),
            forward.find("- sdpa-math: **not-fused**"));
  EXPECT_LT(forward.find("- sdpa-math: **not-fused**"),
            forward.find("- sdpa-math: **mask-rebuilt**"));
}

}  // namespace
}  // namespace attnprof
