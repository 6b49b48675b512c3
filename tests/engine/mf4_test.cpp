// The MF-4 robot in seed 000's door experiment and seed 001's container experiment, driven by the
// scripted inputs in scenes/ through the robot's own functional scheme.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numbers>
#include <vector>

#include "impetus/probes/probe.h"
#include "impetus/scene/input_script.h"
#include "impetus/scene/scene_loader.h"
#include "impetus/session/simulation.h"

namespace impetus {
namespace {

const std::string kScenes = IMPETUS_SCENES_DIR;

/// Runs a scene with its script for `duration` seconds, calling `observe` after every step.
template <class Observe>
void runScripted(LoadedScene& s, const std::string& script, double duration, Observe observe) {
  InputScript input = InputScript::read(kScenes + "/" + script, s.console.channels());
  std::vector<double> channels(s.console.channels().size(), 0.0);
  while (s.world->time() < duration - 1e-9) {
    input.apply(s.world->time(), channels);
    s.scheme->step(channels, s.step);
    const StepStatus status = s.world->step(s.step);
    ASSERT_TRUE(status.ok) << status.message;
    observe();
  }
}

TEST(Mf4, RobotFileDescribesTheConsoleAndTheDrives) {
  LoadedScene s = loadScene(kScenes + "/mf4.xml");
  EXPECT_EQ(s.console.channels(), (std::vector<std::string>{"drive.x", "drive.y", "arm.x", "arm.y",
                                                            "arm.select", "gripper", "light"}));
  for (const char* motor : {"track_left", "track_right", "turret_motor", "shoulder_motor",
                            "elbow_motor", "wrist_motor", "gripper_motor"})
    EXPECT_NE(s.world->findMotor(motor), nullptr) << motor;
  EXPECT_EQ(s.cameras.size(), 3u);  // driving and gripper cameras, and the scene's chase view
  // Driving forward for 2 s at full stick: the tracks' no-load belt speed is
  // 7580 rpm / 60 x 0.09 m = 1.19 m/s; the robot covers most of 2.4 m.
  const BodyId hull = s.world->findBody("hull");
  std::vector<double> channels(7, 0.0);
  channels[1] = 1.0;
  for (int i = 0; i < 200; ++i) {
    s.scheme->step(channels, s.step);
    ASSERT_TRUE(s.world->step(s.step).ok);
  }
  EXPECT_GT(s.world->body(hull).position.x(), 2.0);
  EXPECT_LT(s.world->body(hull).position.x(), 2.4);
  // The joint-select toggle routes the manipulator stick: shoulder first, then the elbow.
  channels[1] = 0.0;
  channels[3] = 1.0;
  Joint* shoulder = s.world->findJoint("shoulder");
  Joint* elbow = s.world->findJoint("elbow");
  const double shoulder0 = shoulder->position(), elbow0 = elbow->position();
  for (int i = 0; i < 50; ++i) {
    s.scheme->step(channels, s.step);
    ASSERT_TRUE(s.world->step(s.step).ok);
  }
  EXPECT_GT(shoulder->position() - shoulder0, 0.1);  // stick up raises the arm
  EXPECT_NEAR(elbow->position(), elbow0, 0.01);
  channels[4] = 1.0;
  const double shoulder1 = shoulder->position();
  for (int i = 0; i < 50; ++i) {
    s.scheme->step(channels, s.step);
    ASSERT_TRUE(s.world->step(s.step).ok);
  }
  EXPECT_GT(elbow->position() - elbow0, 0.1);
  EXPECT_NEAR(shoulder->position(), shoulder1, 0.01);  // braked while not selected
}

TEST(Mf4, EveryListedProbeResolves) {
  // The GUI's plot picker offers probeNames(): each must resolve, and read a finite number.
  LoadedScene s = loadScene(kScenes + "/mf4.xml");
  const std::vector<std::string> names = probeNames(*s.world);
  const auto movingBodies = std::count_if(s.world->bodies().begin(), s.world->bodies().end(),
                                          [](const RigidBody& b) { return b.isDynamic(); });
  EXPECT_EQ(movingBodies, 7);  // hull, turret, upper arm, forearm, wrist, two jaws
  EXPECT_EQ(names.size(),
            size_t(12 * int(movingBodies) + 3 * s.world->jointCount() + 5 * s.world->motorCount() +
                   9 + 7 + 6 + 2));  // sensors: imu, force_torque, contact, encoder
  for (const std::string& name : names) EXPECT_TRUE(std::isfinite(resolveProbe(*s.world, name)()));
  auto listed = [&](const std::string& n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  EXPECT_TRUE(listed("body.hull.yaw"));
  EXPECT_TRUE(listed("joint.jaw_left.force"));
  EXPECT_TRUE(listed("motor.track_left.current"));
  EXPECT_FALSE(listed("body.ground.x"));  // static bodies do not move
}

TEST(Mf4, DoorPushReproducesTheShapeOfSeed000) {
  LoadedScene s = loadScene(kScenes + "/mf4-door.xml");
  Joint* hinge = s.world->findJoint("hinge");
  // Door 1.0 x 0.04 x 2.0 m, 30 kg, about its edge: I = m (w^2 + t^2) / 12 + m (w/2)^2.
  const double inertia = 30.0 * (1.0 + 0.0016) / 12.0 + 30.0 * 0.25, fMax = 20.0;
  const BodyId door = s.world->findBody("door");
  std::vector<double> time, rate, angle;
  std::vector<bool> pushed;
  runScripted(s, "mf4-door.csv", 3.0, [&] {
    time.push_back(s.world->time());
    rate.push_back(std::abs(hinge->rate()));
    angle.push_back(std::abs(hinge->position()));
    pushed.push_back(s.world->contactForce(door).norm() > 0.0);
  });
  // The push ends when the robot's last contact with the door does.
  size_t release = 0;
  for (size_t k = 0; k < pushed.size(); ++k)
    if (pushed[k]) release = k + 1;
  ASSERT_GT(release, 0u) << "the robot never touched the door";
  size_t stop = release;
  while (stop < rate.size() && rate[stop] > 1e-9) ++stop;
  ASSERT_LT(stop, rate.size()) << "the door never stops";
  // After the push the rate falls linearly at F_max / I (seed 000's shape): every sample between
  // the robot letting go and the stop lies on that line.
  const double deceleration = fMax / inertia;
  double worst = 0.0;
  for (size_t k = release; k + 1 < stop; ++k)
    worst = std::max(
        worst, std::abs(rate[k] - (rate[release] - deceleration * (time[k] - time[release]))));
  // (1e-4 rad/s: the hinge rows close to the solver residual after the impact-shaken push.)
  EXPECT_LT(worst, 1e-4);
  EXPECT_NEAR(time[stop], time[release] + rate[release] / deceleration, s.step);
  // Then it stays: static friction holds the door to the last digit.
  for (size_t k = stop; k < angle.size(); ++k) EXPECT_NEAR(angle[k], angle[stop], 1e-9);
  const size_t peak = release;
  RecordProperty("push_end_s", std::to_string(time[peak]));
  RecordProperty("peak_rate_rad_s", std::to_string(rate[peak]));
  RecordProperty("t_stop_s", std::to_string(time[stop]));
  RecordProperty("angle_deg", std::to_string(angle[stop] * 180 / std::numbers::pi));
  std::printf("mf4-door: push ends %.2f s at %.3f rad/s; t_stop %.2f s; angle %.2f deg\n",
              time[peak], rate[peak], time[stop], angle[stop] * 180 / std::numbers::pi);
}

TEST(Mf4, GripperHoldsTheContainerWhileTheArmLiftsIt) {
  LoadedScene s = loadScene(kScenes + "/mf4-container.xml");
  const BodyId container = s.world->findBody("container");
  const BodyId wrist = s.world->findBody("wrist");
  const auto inWrist = [&] {
    const RigidBody& w = s.world->body(wrist);
    return Vec3(w.rotation.transpose() * (s.world->body(container).position - w.position));
  };
  const double z0 = s.world->body(container).position.z();
  Vec3 grasped = Vec3::Zero();
  double worstSlip = 0.0, lift = 0.0, meanIterations = 0.0;
  runScripted(s, "mf4-container.csv", 4.5, [&] {
    const double t = s.world->time();
    meanIterations += s.world->statistics().velocityIterations / 450.0;
    if (std::abs(t - 2.0) < 1e-9) grasped = inWrist();  // jaws closed, arm not moving yet
    if (t > 2.0) worstSlip = std::max(worstSlip, (inWrist() - grasped).norm());
    lift = s.world->body(container).position.z() - z0;
  });
  RecordProperty("lift_m", std::to_string(lift));
  RecordProperty("slip_mm", std::to_string(worstSlip * 1e3));
  EXPECT_GT(lift, 0.3);
  EXPECT_LT(worstSlip, 0.01);
  // The hull's face on the ground is in the tree: where the tree's answer pulls at a corner, only
  // that corner leaves (for the step), not the face. Measured 18.1 velocity iterations a step in
  // the release build, 22.4 in the sanitizer build (-O2 rounds differently and the grasp is
  // sensitive to it); 25.7 (release) when the whole face left and came back until the iterations
  // ran out.
  std::printf("mf4-container: %.2f velocity iterations a step\n", meanIterations);
  EXPECT_LT(meanIterations, 24.0);
  // One motor closes both jaws symmetrically (the repeater): they meet the container's faces.
  EXPECT_NEAR(s.world->findJoint("jaw_left")->position(), 0.03, 0.002);
  EXPECT_NEAR(s.world->findJoint("jaw_right")->position(), -0.03, 0.002);
}

TEST(Mf4, AJawGearSteppedThroughTheTreeDoesNotThrowTheRobot) {
  // The state an 8-hour soak of mf4-gates reached (impetus-soak, seed 1, t = 18614.5 s): the arm
  // folded back with the wrist pressed onto the hull, the left jaw and the hull's front on the
  // ground, the gripper closing. The repeater's gear row is stepped with the tree's answer, and
  // that answer asked the jaw's ground contact for -1246 N s; the tree then let the contact go
  // and kept the joints' share of the answer: the next step threw the 55 kg robot up at
  // 19 m/s and spun it at 31 rad/s. Where the tree's answer would make a contact of it pull, the
  // gear row is stepped with its own mass: nothing moves faster than the drives can move it.
  Simulation sim(loadScene(kScenes + "/mf4-gates.xml"));
  std::FILE* file = std::fopen(IMPETUS_TEST_DATA_DIR "/mf4-gates-jaw-gear-on-ground.state", "rb");
  ASSERT_NE(file, nullptr);
  std::vector<std::uint8_t> state(1 << 16);
  state.resize(std::fread(state.data(), 1, state.size(), file));
  std::fclose(file);
  sim.loadState(state);
  const World& world = sim.world();
  const auto fastest = [&] {
    double speed = 0.0;
    for (BodyId b = 0; b < world.bodyCount(); ++b)
      speed = std::max(speed, world.body(b).linearVelocity.norm());
    return speed;
  };
  EXPECT_LT(fastest(), 1.0);  // measured 0.96 m/s, the right jaw sliding on the ground
  double fastestAfter = 0.0;
  for (int i = 0; i < 20; ++i) {
    const StepStatus status = sim.step();
    ASSERT_TRUE(status.ok) << status.message;
    fastestAfter = std::max(fastestAfter, fastest());
  }
  // The MF-4's fastest drive, the tracks, runs its belts at 1.19 m/s with no load; 0.2 s of a
  // stalled gripper cannot add more. Measured 0.84 m/s; 46.6 m/s (the jaws) when thrown.
  RecordProperty("fastest_m_per_s", std::to_string(fastestAfter));
  EXPECT_LT(fastestAfter, 1.2);
}

}  // namespace
}  // namespace impetus
