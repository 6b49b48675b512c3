// Sensors (`<sensor>`, sensor.NAME.COMPONENT probes) against closed forms: an IMU at rest reads
// +g up and 0 in free fall, its gyro the body-frame rate; a force/torque cell carries a hanging
// load's weight and moment; a contact sensor the weight of a box on the ground.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "impetus/probes/probe.h"
#include "impetus/scene/scene_loader.h"
#include "impetus/session/simulation.h"

using namespace impetus;

namespace {

constexpr double kG = 9.81;

double read(World& world, const std::string& probe) {
  return resolveProbe(world, probe)();
}

}  // namespace

TEST(Sensors, ImuReadsGravityAtRestAndNothingInFreeFall) {
  LoadedScene s = loadSceneText(R"(<scene>
    <body name="ground" fixed="true"><geom type="plane"/></body>
    <body name="box" pos="0 0 0.1" mass="3"><geom type="box" size="0.4 0.4 0.2"/></body>
    <body name="falling" pos="5 0 50" mass="1" angular_velocity="0 0 2">
      <geom type="sphere" radius="0.1"/></body>
    <sensor type="imu" name="box_imu" body="box"/>
    <sensor type="imu" name="fall_imu" body="falling"/>
    <sensor type="contact" name="box_sole" body="box"/>
  </scene>)",
                                "sensors.xml");
  World& w = *s.world;
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(w.step(0.01).ok);
  // At rest the accelerometer feels the ground push: +g along the body's z.
  EXPECT_NEAR(read(w, "sensor.box_imu.az"), kG, 1e-3);
  EXPECT_NEAR(read(w, "sensor.box_imu.ax"), 0.0, 1e-3);
  EXPECT_NEAR(read(w, "sensor.box_imu.pitch"), 0.0, 1e-6);
  // In free fall it feels nothing; the gyro reads the spin about the body's z.
  EXPECT_NEAR(read(w, "sensor.fall_imu.az"), 0.0, 1e-9);
  EXPECT_NEAR(read(w, "sensor.fall_imu.wz"), 2.0, 1e-9);
  // The contact sensor carries the box's weight on its 4 corners.
  EXPECT_NEAR(read(w, "sensor.box_sole.fz"), 3.0 * kG, 1e-3 * 3.0 * kG);
  EXPECT_NEAR(read(w, "sensor.box_sole.force"), 3.0 * kG, 1e-3 * 3.0 * kG);
  EXPECT_EQ(read(w, "sensor.box_sole.points"), 4.0);
  EXPECT_EQ(read(w, "sensor.box_sole.in_contact"), 1.0);
}

TEST(Sensors, ForceTorqueCellCarriesAHangingLoadAndEncoderReadsTheJoint) {
  // A 2 kg arm on a motionless hinge about y: its centre 0.5 m out along x. The cell in the hinge
  // carries the weight (m g up on the child) and the moment m g 0.5 about the hinge axis.
  LoadedScene s = loadSceneText(R"(<scene>
    <body name="base" fixed="true"><geom type="box" size="0.1 0.1 0.1"/></body>
    <body name="arm" pos="0.5 0 1" mass="2" inertia="0.01 0.2 0.2">
      <geom type="box" size="1 0.05 0.05"/>
      <joint name="hinge" type="fixed" pos="-0.5 0 0"/>
    </body>
    <sensor type="force_torque" name="cell" joint="hinge"/>
    <sensor type="encoder" name="enc" joint="hinge"/>
  </scene>)",
                                "cell.xml");
  World& w = *s.world;
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(w.step(0.01).ok);
  const double weight = 2.0 * kG;
  EXPECT_NEAR(read(w, "sensor.cell.fz"), weight, 1e-6 * weight);
  EXPECT_NEAR(std::hypot(read(w, "sensor.cell.fx"), read(w, "sensor.cell.fy")), 0.0, 1e-6);
  const double moment = std::hypot(read(w, "sensor.cell.tx"), read(w, "sensor.cell.ty"));
  EXPECT_NEAR(moment, weight * 0.5, 1e-6 * weight);
  EXPECT_EQ(read(w, "sensor.enc.position"), read(w, "joint.hinge.position"));
  EXPECT_EQ(read(w, "sensor.enc.rate"), read(w, "joint.hinge.rate"));
}

TEST(Sensors, ProbesNameWhatIsWrongAndStatesResumeBitExact) {
  LoadedScene s = loadScene(IMPETUS_SCENES_DIR "/mf4.xml");
  World& w = *s.world;
  try {
    resolveProbe(w, "sensor.hull_imu.bogus");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("this sensor has ax ay az wx wy wz roll pitch yaw"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(resolveProbe(w, "sensor.nothing.ax"), std::invalid_argument);
  // The MF-4's sensors are listed for the plots.
  const auto names = probeNames(w);
  EXPECT_NE(std::find(names.begin(), names.end(), "sensor.wrist_ft.fz"), names.end());
  // The IMU's memory (last velocity) is state: a resumed run reads what the original read.
  Simulation a(std::move(s));
  a.channels()[1] = 1.0;  // drive forward: the hull accelerates
  double peakAx = 0.0;
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(a.step().ok);
    peakAx = std::max(peakAx, resolveProbe(a.world(), "sensor.hull_imu.ax")());
  }
  EXPECT_GT(peakAx, 1.0);  // the hull does accelerate (to 1.2 m/s within a few tenths of a s)
  const auto state = a.saveState();
  Simulation b(loadScene(IMPETUS_SCENES_DIR "/mf4.xml"));
  b.loadState(state);
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(a.step().ok);
    ASSERT_TRUE(b.step().ok);
  }
  for (const char* p : {"sensor.hull_imu.ax", "sensor.wrist_ft.fz", "sensor.jaw_pad.force"})
    EXPECT_EQ(resolveProbe(a.world(), p)(), resolveProbe(b.world(), p)()) << p;
}
