#include <gtest/gtest.h>

#include "impetus/version.h"

TEST(Version, IsSemantic) {
  EXPECT_STREQ(impetus::version(), "0.1.0");
}
