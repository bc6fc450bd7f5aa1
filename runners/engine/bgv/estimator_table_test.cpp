// The lattice estimator's table (estimator_table.h) and the registry's `estimator` model on
// a hand-written table: the figure at the smallest tabulated log2 Q >= the asked one for
// exactly that phi, hwt and sigma; a missing point refused by name, with the command that
// fills it; a search's lowest figure (lowest_bits_for) asking it only where the others pass.
#include "engine/bgv/estimator_table.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <string>

#include <unistd.h>

#include "engine/bgv/coresvp.h"
#include "engine/bgv/security.h"
#include "engine/bgv/security_model.h"

namespace cb::bgv {
namespace {

template <class E = ParameterError>
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

// A hand-written table: phi 46080 at weight 120 on three log2 Q (figures falling as Q grows),
// dense on one, and one at another sigma. The figures are made up (round numbers), not the
// estimator's.
const char* const kTable =
    "phi,hwt,sigma,log2_q,bits,attack,attacks,commit\n"
    "46080,120,3.2,800,170,usvp,usvp;dual,27a581b\n"
    "46080,120,3.2,1000,140.5,dual,usvp;dual,27a581b\n"
    "46080,120,3.2,900,155,usvp,usvp;dual,27a581b\n"
    "46080,0,3.2,900,160,usvp,usvp;dual,27a581b\n"
    "46080,120,8,900,150,usvp,usvp;dual,27a581b\n";

// A file of this process's own, removed with it: CTest runs each test as a process, two at once
// under -j, and two fixtures writing one shared name had one reading the file while the other
// truncated it.
struct TempFile {
  TempFile(const std::string& name, const std::string& text)
      : path(::testing::TempDir() + "cb_" + std::to_string(getpid()) + "_" + name) {
    std::ofstream(path) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string path;
};

TEST(EstimatorTable, SmallestTabulatedModulusAtOrAbove) {
  const auto t = EstimatorTable::read(TempFile("est_table.csv", kTable).path);
  EXPECT_EQ(t.size(), 5u);
  EXPECT_EQ(t.at(46080, 120, 3.2, 700)->bits, 170);     // below the first point: its figure
  EXPECT_EQ(t.at(46080, 120, 3.2, 800)->bits, 170);     // on a point
  EXPECT_EQ(t.at(46080, 120, 3.2, 800.001)->bits, 155); // just above: the next point (rows sorted)
  EXPECT_EQ(t.at(46080, 120, 3.2, 1000)->attack, "dual");
  EXPECT_EQ(t.at(46080, 120, 3.2, 1000.5), nullptr);    // above the last: no figure
  EXPECT_EQ(t.at(46080, 150, 3.2, 800), nullptr);       // another weight: no figure
  EXPECT_EQ(t.at(46081, 120, 3.2, 800), nullptr);       // another phi
  EXPECT_EQ(t.at(46080, 120, 8, 850)->bits, 150);       // sigma is part of the point
  EXPECT_EQ(t.at(46080, 0, 3.2, 850)->bits, 160);
  EXPECT_EQ(t.largest_log2_q(46080, 120, 3.2), 1000);
  EXPECT_EQ(t.largest_log2_q(46080, 150, 3.2), 0);
}

TEST(EstimatorTable, Refusals) {
  const std::string hdr = "phi,hwt,sigma,log2_q,bits,attack,attacks,commit\n";
  EXPECT_NE(error_of([] { EstimatorTable::read("/nonexistent/t.csv"); })
                .find("estimator table /nonexistent/t.csv cannot be read: write it with "
                      "`python -m cbparams.estimator_table write --table /nonexistent/t.csv`"),
            std::string::npos);
  const TempFile bad_header_file("est_bad_header.csv", "phi,hwt,sigma,log2_q,bits,attack,commit\n");
  const std::string& bad_header = bad_header_file.path;
  EXPECT_EQ(error_of([&] { EstimatorTable::read(bad_header); }),
            "estimator table " + bad_header + ": the header 'phi,hwt,sigma,log2_q,bits,attack,commit' lacks column attacks");
  const TempFile bad_number_file("est_bad_number.csv", hdr + "46080,120,3.2,8x0,170,usvp,usvp,c\n");
  const std::string& bad_number = bad_number_file.path;
  EXPECT_EQ(error_of([&] { EstimatorTable::read(bad_number); }),
            "estimator table " + bad_number + " line 2: log2_q='8x0' is not a number");
  const TempFile short_row_file("est_short.csv", hdr + "46080,120,3.2\n");
  const std::string& short_row = short_row_file.path;
  EXPECT_EQ(error_of([&] { EstimatorTable::read(short_row); }),
            "estimator table " + short_row + " line 2: 3 cells, the header has 8");
  EXPECT_EQ(error_of([] { EstimatorTable("t", {{46080, 50000, 3.2, 800, 170, "usvp", "usvp", "c"}}); }),
            "estimator table t, point phi=46080, hwt=50000, sigma=3.2, log2_q=800: hwt=50000 must lie in "
            "[0, phi=46080] (0 = dense key)");
  EXPECT_EQ(error_of([] {
              EstimatorTable("t", {{46080, 120, 3.2, 800, 170, "usvp", "usvp", "c"},
                                   {46080, 120, 3.2, 800, 171, "dual", "dual", "c"}});
            }),
            "estimator table t, point phi=46080, hwt=120, sigma=3.2, log2_q=800: the point is given twice");
  EXPECT_EQ(error_of([] { EstimatorTable("t", {{46080, 120, 3.2, 0, 170, "usvp", "usvp", "c"}}); }),
            "estimator table t, point phi=46080, hwt=120, sigma=3.2, log2_q=0: log2_q=0 must be positive");
}

// The registry's model reads the table in use; none, or a missing point, is refused by name.
class EstimatorModel : public ::testing::Test {
 protected:
  void SetUp() override { use_estimator_table(std::make_shared<EstimatorTable>(EstimatorTable::read(path_))); }
  void TearDown() override { use_estimator_table(nullptr); }
  const TempFile file_{"est_model.csv", kTable};
  const std::string& path_ = file_.path;
};

TEST_F(EstimatorModel, AnswersFromTheTable) {
  const auto& est = security_model("estimator");
  EXPECT_EQ(est.bits({53261, 46080, 850, 120}), 155);
  EXPECT_EQ(est.bits({53261, 46080, 850, 0}), 160);
  EXPECT_EQ(est.bits({53261, 46080, 1000, 120}), 140.5);
}

TEST_F(EstimatorModel, MissingPointNamesItAndTheCommand) {
  const auto& est = security_model("estimator");
  EXPECT_EQ(error_of<MissingFigure>([&] { est.bits({53261, 46080, 1119.163, 120}); }),
            "security model 'estimator': the table " + path_ +
                " has no figure for phi=46080, hwt=120, sigma=3.2 at log2 Q >= 1119.163 (its largest log2 Q there is "
                "1000): fill it with `python -m cbparams.estimator_table fill --phi 46080 --hwt 120 --sigma 3.2 "
                "--log2-q 1120 --table " + path_ + "`");
  EXPECT_NE(error_of<MissingFigure>([&] { est.bits({53261, 46080, 850, 150}); }).find("(no point there)"),
            std::string::npos);
}

TEST_F(EstimatorModel, SearchAsksItOnlyWhereTheOthersPass) {
  const auto all = security_models_named({"helib", "coresvp", "estimator"});
  EXPECT_EQ(titles(all), "HElib's formula, core-SVP and the lattice estimator");
  // Within the table: the lowest of the three, lowest_bits and lowest_bits_for alike.
  const SecurityQuery in{53261, 46080, 850, 120};
  const double expect = std::min({helib_security(53261, 46080, 850, 120), coresvp_bits(46080, 850, 120), 155.0});
  EXPECT_EQ(lowest_bits(all, in), expect);
  EXPECT_EQ(lowest_bits_for(all, in, 128), expect);
  // Above the table at a modulus where HElib's formula and core-SVP already fall short of
  // the target: the chain fails whatever the estimator says, so no figure is needed.
  const SecurityQuery big{53261, 46080, 2000, 120};
  const double others = std::min(helib_security(53261, 46080, 2000, 120), coresvp_bits(46080, 2000, 120));
  ASSERT_LT(others, 128);
  EXPECT_EQ(lowest_bits_for(all, big, 128), others);
  EXPECT_NE(error_of<MissingFigure>([&] { lowest_bits(all, big); }), "");
  // Where the others reach the target, the missing point is the answer: refused, named.
  EXPECT_NE(error_of<MissingFigure>([&] { lowest_bits_for(all, big, others - 1); }).find("log2 Q >= 2000.000"),
            std::string::npos);
}

TEST(EstimatorModelWithoutTable, Refused) {
  use_estimator_table(nullptr);
  EXPECT_EQ(error_of([] { security_model("estimator").bits({53261, 46080, 850, 120}); }),
            "security model 'estimator' answers from a table of the lattice estimator's figures: give it with "
            "--estimator-table PATH (written by `python -m cbparams.estimator_table write --table PATH` from the "
            "estimator's cache)");
}

}  // namespace
}  // namespace cb::bgv
