#include "scenario/policy_spec.h"

#include <gtest/gtest.h>

#include <string>

#include "sched/placement_policy.h"

namespace aifabric {
namespace {

TEST(PolicySpec, EveryPlacementPolicyParsesAloneAndWithBothOptions) {
  for (std::string_view name : PlacementPolicyNames()) {
    const std::string n(name);
    Result<PolicySpec> plain = ParsePolicySpec(n);
    ASSERT_TRUE(plain.ok()) << plain.error().message;
    EXPECT_EQ(*plain, (PolicySpec{n, false, false}));
    EXPECT_EQ(plain->Name(), n);
    EXPECT_EQ(plain->Comm(), "none");

    Result<PolicySpec> both = ParsePolicySpec(n + "+crux+cassini");
    ASSERT_TRUE(both.ok()) << both.error().message;
    EXPECT_EQ(*both, (PolicySpec{n, true, true}));
    EXPECT_EQ(both->Name(), n + "+crux+cassini");
    EXPECT_EQ(both->Comm(), "crux+cassini");
  }
}

TEST(PolicySpec, OptionsInEitherOrderGiveOneCanonicalName) {
  const std::string first(PlacementPolicyNames().front());
  Result<PolicySpec> swapped = ParsePolicySpec(first + "+cassini+crux");
  ASSERT_TRUE(swapped.ok()) << swapped.error().message;
  EXPECT_EQ(swapped->Name(), first + "+crux+cassini");
  Result<PolicySpec> crux = ParsePolicySpec(first + "+crux");
  ASSERT_TRUE(crux.ok());
  EXPECT_EQ(crux->Comm(), "crux");
  Result<PolicySpec> cassini = ParsePolicySpec(first + "+cassini");
  ASSERT_TRUE(cassini.ok());
  EXPECT_EQ(cassini->Comm(), "cassini");
  EXPECT_EQ(cassini->Name(), first + "+cassini");
}

TEST(PolicySpec, UnknownPolicyListsEveryAcceptedName) {
  Result<PolicySpec> r = ParsePolicySpec("best_fit+crux");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("unknown policy 'best_fit' in 'best_fit+crux'"), std::string::npos)
      << r.error().message;
  for (std::string_view name : PlacementPolicyNames()) {
    EXPECT_NE(r.error().message.find(std::string(name)), std::string::npos) << name;
  }
  EXPECT_FALSE(ParsePolicySpec("").ok());
  EXPECT_FALSE(ParsePolicySpec("+crux").ok());
}

TEST(PolicySpec, BadOrRepeatedOptionsAreNamed) {
  const std::string first(PlacementPolicyNames().front());
  Result<PolicySpec> unknown = ParsePolicySpec(first + "+fast");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message,
            "unknown option '+fast' in '" + first + "+fast' (expected +crux or +cassini)");
  Result<PolicySpec> empty = ParsePolicySpec(first + "+");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().message.find("unknown option '+'"), std::string::npos) << empty.error().message;
  Result<PolicySpec> twice = ParsePolicySpec(first + "+crux+crux");
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message, "option '+crux' given twice in '" + first + "+crux+crux'");
}

TEST(PolicySpecList, KeepsOrderAndRejectsEmptyItemsAndRepeats) {
  const std::string a(PlacementPolicyNames().front()), b(PlacementPolicyNames().back());
  Result<std::vector<PolicySpec>> list = ParsePolicySpecList(a + ", " + b + "+crux," + a + "+cassini");
  ASSERT_TRUE(list.ok()) << list.error().message;
  ASSERT_EQ(list->size(), 3u);
  EXPECT_EQ((*list)[0].Name(), a);
  EXPECT_EQ((*list)[1].Name(), b + "+crux");
  EXPECT_EQ((*list)[2].Name(), a + "+cassini");

  EXPECT_FALSE(ParsePolicySpecList("").ok());
  EXPECT_FALSE(ParsePolicySpecList(a + ",").ok());
  Result<std::vector<PolicySpec>> repeated = ParsePolicySpecList(a + "+crux+cassini," + a + "+cassini+crux");
  ASSERT_FALSE(repeated.ok());
  EXPECT_EQ(repeated.error().message, "policy spec '" + a + "+crux+cassini' listed twice");
}

}  // namespace
}  // namespace aifabric
