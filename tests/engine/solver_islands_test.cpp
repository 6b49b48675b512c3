// SolverIslands: which rows a step solves together.
#include <gtest/gtest.h>

#include <vector>

#include "impetus/dynamics/solver_islands.h"

namespace impetus {
namespace {

ContactPoint contact(BodyId a, BodyId b, int tag) {
  ContactPoint c;
  c.bodyA = a;
  c.bodyB = b;
  c.shapeA = tag;  // marks the point, to follow it through the reordering
  return c;
}

TEST(SolverIslands, RowsOverSharedBodiesOrRotorsGoTogetherAndStaticBodiesLinkNothing) {
  // Bodies: 0 ground (static), 1-2 one mechanism, 3-4 another, 5 a box on the ground, 6 asleep.
  const std::vector<char> movable = {0, 1, 1, 1, 1, 1, 0};
  SolverIslands islands;
  islands.reset(movable, 4);  // rotor slots 1-3
  // Joints: 1-2 (hinge to the ground first), 3-4; body 2's joint and body 4's joint share rotor 1
  // (a repeater's gear): the two mechanisms are one island.
  islands.linkBodies(0, 1);
  islands.addJoint(0, 0, 1, 0);
  islands.linkBodies(1, 2);
  islands.linkRotor(2, 1);
  islands.addJoint(1, 1, 2, 1);
  islands.linkBodies(3, 4);
  islands.addJoint(2, 3, 4, 0);
  islands.linkRotor(4, 1);
  islands.addJoint(3, 3, 4, 1);
  // A track drive whose belt touches nothing: an island of its rotor alone.
  islands.addTrackMotor(7, 3);
  // Contacts, as detection left them: box on the ground, the ground under 1, the sleeper and 5.
  std::vector<ContactPoint> contacts = {contact(0, 5, 0), contact(0, 1, 1), contact(6, 5, 2),
                                        contact(0, 3, 3)};
  for (const ContactPoint& c : contacts) islands.linkBodies(c.bodyA, c.bodyB);
  islands.finish(contacts);

  ASSERT_EQ(islands.islands().size(), 3u);  // {1,2,3,4 + rotor 1}, {5}, {rotor 3}
  const SolverIslands::Island& mechanisms = islands.islands()[0];
  EXPECT_EQ(std::vector<int>(islands.joints(mechanisms).begin(), islands.joints(mechanisms).end()),
            (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(
      std::vector<BodyId>(islands.bodies(mechanisms).begin(), islands.bodies(mechanisms).end()),
      (std::vector<BodyId>{1, 2, 3, 4}));
  // Its contacts are contiguous and keep their order (1 before 3), then the box's (0 and 2).
  ASSERT_EQ(mechanisms.contactEnd - mechanisms.contactBegin, 2u);
  EXPECT_EQ(contacts[mechanisms.contactBegin].shapeA, 1);
  EXPECT_EQ(contacts[mechanisms.contactBegin + 1].shapeA, 3);
  const SolverIslands::Island& box = islands.islands()[1];
  ASSERT_EQ(box.contactEnd - box.contactBegin, 2u);
  EXPECT_EQ(contacts[box.contactBegin].shapeA, 0);
  EXPECT_EQ(contacts[box.contactBegin + 1].shapeA, 2);
  EXPECT_EQ(std::vector<BodyId>(islands.bodies(box).begin(), islands.bodies(box).end()),
            (std::vector<BodyId>{5}));
  EXPECT_TRUE(islands.joints(box).empty());
  const SolverIslands::Island& belt = islands.islands()[2];
  EXPECT_EQ(std::vector<int>(islands.trackMotors(belt).begin(), islands.trackMotors(belt).end()),
            (std::vector<int>{7}));
  EXPECT_TRUE(islands.bodies(belt).empty());
}

TEST(SolverIslands, WithoutTheSharedRotorTheMechanismsAreTwoIslands) {
  const std::vector<char> movable = {0, 1, 1, 1, 1};
  SolverIslands islands;
  islands.reset(movable, 3);
  islands.linkBodies(1, 2);
  islands.linkRotor(2, 1);
  islands.addJoint(0, 1, 2, 1);
  islands.linkBodies(3, 4);
  islands.linkRotor(4, 2);
  islands.addJoint(1, 3, 4, 2);
  std::vector<ContactPoint> none;
  islands.finish(none);
  ASSERT_EQ(islands.islands().size(), 2u);
  EXPECT_EQ(islands.joints(islands.islands()[0]).front(), 0);
  EXPECT_EQ(islands.joints(islands.islands()[1]).front(), 1);
}

}  // namespace
}  // namespace impetus
