#include "core/symbol.h"

#include <gtest/gtest.h>

namespace boreas {
namespace {

TEST(SymbolTable, InternDeduplicates) {
  SymbolTable t;
  const Symbol a = t.intern("vc-a");
  const Symbol b = t.intern("vc-b");
  EXPECT_NE(a, b);
  EXPECT_EQ(t.intern("vc-a"), a);
  EXPECT_EQ(t.view(a), "vc-a");
  EXPECT_EQ(t.find("vc-b"), b);
  EXPECT_TRUE(t.find("missing").empty());
}

TEST(SymbolTable, EmptyStringIsTheDefaultSymbol) {
  SymbolTable t;
  EXPECT_TRUE(t.intern("").empty());
  EXPECT_TRUE(t.add("").empty());
  EXPECT_EQ(t.view(Symbol()), "");
}

TEST(SymbolTable, AddKeepsDuplicatesApart) {
  SymbolTable t;
  const Symbol a = t.add("job-1");
  const Symbol b = t.add("job-1");
  EXPECT_NE(a, b);
  EXPECT_EQ(t.view(a), t.view(b));
  EXPECT_EQ(t.size(), 3u);  // the empty symbol and the two names
}

}  // namespace
}  // namespace boreas
