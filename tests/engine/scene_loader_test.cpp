// The XML scene loader: real scenes load and behave; bad input is rejected with file:line: problem.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>

#include "impetus/probes/probe.h"
#include "impetus/scene/scene_loader.h"

namespace impetus {
namespace {

const std::string kScenes = IMPETUS_SCENES_DIR;

TEST(SceneLoader, DoorSceneReproducesSeed000sDecelerationAndStop) {
  LoadedScene s = loadScene(kScenes + "/door.xml");
  Joint* hinge = s.world->findJoint("hinge");
  ASSERT_NE(hinge, nullptr);
  // Door 1.0 x 0.04 x 2.0 m, 30 kg, about its edge: I = m (w^2 + t^2) / 12 + m (w/2)^2.
  const double inertia = 30.0 * (1.0 + 0.0016) / 12.0 + 30.0 * 0.25, w0 = 1.25, fMax = 20.0;
  double stoppedAt = -1.0;
  while (s.world->time() < 3.0) {
    ASSERT_TRUE(s.world->step(s.step).ok);
    if (stoppedAt < 0 && std::abs(hinge->rate()) < 1e-9) stoppedAt = s.world->time();
  }
  EXPECT_NEAR(stoppedAt, inertia * w0 / fMax, s.step);
  EXPECT_NEAR(hinge->position(), inertia * w0 * w0 / (2 * fMax), w0 * s.step);
}

TEST(SceneLoader, TrackedVehicleSceneDrivesFromItsJoystickThroughTheScheme) {
  LoadedScene s = loadScene(kScenes + "/tracked-vehicle.xml");
  ASSERT_TRUE(s.scheme.has_value());
  ASSERT_EQ(s.console.channels(), (std::vector<std::string>{"drive.x", "drive.y"}));
  const BodyId hull = s.world->findBody("hull");
  const std::vector<double> forward{0.0, 1.0};
  for (int i = 0; i < 200; ++i) {
    s.scheme->step(forward, s.step);
    ASSERT_TRUE(s.world->step(s.step).ok);
  }
  EXPECT_GT(s.world->body(hull).position.x(), 0.8);  // ~0.5 m/s for 2 s
  EXPECT_EQ(s.world->findMotor("track_left")->voltage(), 1.0);
  const std::vector<double> right{1.0, 0.0};
  for (int i = 0; i < 100; ++i) {
    s.scheme->step(right, s.step);
    ASSERT_TRUE(s.world->step(s.step).ok);
  }
  EXPECT_LT(s.world->body(hull).angularVelocity.z(), -0.1);  // joystick right: turning right
  ASSERT_EQ(s.cameras.size(), 1u);
}

TEST(SceneLoader, EverySceneLoadsAndRunsAMinuteWithoutNaNOrOpenJoints) {
  int count = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kScenes)) {
    if (entry.path().extension() != ".xml") continue;
    const auto folder = entry.path().parent_path().filename();
    if (folder == "robots" || folder == "props") continue;  // <robot> files: included
    ++count;
    LoadedScene s = loadScene(entry.path().string());
    double worstGap = 0.0;
    for (int i = 0; i < 6000; ++i) {
      if (s.scheme) s.scheme->step(std::vector<double>(s.console.channels().size(), 0.0), s.step);
      const StepStatus status = s.world->step(s.step);
      ASSERT_TRUE(status.ok) << entry.path() << ": " << status.message;
      worstGap = std::max(worstGap, s.world->largestAnchorSeparation());
    }
    EXPECT_LT(worstGap, 1e-3) << entry.path();
  }
  EXPECT_GE(count, 2);
}

struct BadScene {
  const char* xml;
  const char* expected;  ///< substring of "FILE:LINE: problem"
};

class MalformedScene : public ::testing::TestWithParam<BadScene> {};

TEST_P(MalformedScene, IsRejectedWithFileLineAndProblem) {
  try {
    loadSceneText(GetParam().xml, "bad.xml");
    FAIL() << "accepted: " << GetParam().xml;
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find(GetParam().expected), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("bad.xml:", 0), 0u) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, MalformedScene,
    ::testing::Values(
        BadScene{"<scene><body name='b'", "bad.xml:1: malformed XML"},
        BadScene{"<world/>", "bad.xml:1: the root element must be <scene>"},
        BadScene{"<scene>\n</scene>", "bad.xml:1: empty scene: no <body>"},
        BadScene{"<scene>\n<include file='/dev/zero'/>\n</scene>",
                 "bad.xml:2: cannot include '/dev/zero': not a regular file"},
        BadScene{"<scene>\n<frobnicate/>\n</scene>", "bad.xml:2: unknown element <frobnicate>"},
        BadScene{"<scene>\n<body name='b' mass='1' inertia='1 1 1'/>\n<motor name='m' "
                 "stall_torque='1' no_load_speed='10' rotor_inertia='1e-4' gear_stiffness='100'/>"
                 "\n</scene>",
                 "bad.xml:3: gear_stiffness needs a joint"},
        BadScene{"<scene>\n<beam name='b' length='1' mass_per_length='1' axial_stiffness='1e6' "
                 "torsional_stiffness='10' radius='0.01' bending_stiffness='1 2 3'/>\n</scene>",
                 "bad.xml:2: bending_stiffness must be one number (EI) or two"},
        BadScene{"<scene>\n<beam name='b' length='1' mass_per_length='1' axial_stiffness='1e6' "
                 "torsional_stiffness='10' radius='0.01' bending_stiffness='10' "
                 "segments='0'/>\n</scene>",
                 "bad.xml:2: segments must be a whole number from 1 to 1000"},
        BadScene{"<scene>\n<beam name='b' length='1' mass_per_length='1' axial_stiffness='1e6' "
                 "torsional_stiffness='10' radius='0.01' bending_stiffness='-10'/>\n</scene>",
                 "bad.xml:2: beam 'b': length, mass per length, stiffnesses and section radius"},
        BadScene{"<scene>\n<beam name='b' length='1' mass_per_length='1' axial_stiffness='1e6' "
                 "torsional_stiffness='10' radius='0.01' bending_stiffness='10'>\n<geom "
                 "type='sphere'/></beam>\n</scene>",
                 "bad.xml:3: unknown element <geom> in <beam> (body)"},
        BadScene{"<scene>\n<body name='b_2' mass='1' inertia='1 1 1'/>\n<beam name='b' length='1' "
                 "mass_per_length='1' axial_stiffness='1e6' torsional_stiffness='10' radius='0.01' "
                 "bending_stiffness='10'/>\n</scene>",
                 "bad.xml:3: duplicate body name 'b_2' (first at bad.xml:2)"},
        BadScene{"<scene>\n<world sleep='maybe'/>\n</scene>",
                 "bad.xml:2: attribute 'sleep' must be true or false"},
        BadScene{"<scene>\n<world sleep_time='0'/>\n</scene>",
                 "bad.xml:2: sleep_time must be > 0 (s)"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 1'/><joint name='h' "
                 "type='revolute' axis='0 0 1'/></body>\n<sensor type='sonar' name='s' "
                 "body='b'/>\n</scene>",
                 "bad.xml:3: sensor 's': unknown type 'sonar'"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 1'/><joint name='h' "
                 "type='revolute' axis='0 0 1'/></body>\n<sensor type='encoder' name='s' "
                 "joint='nope'/>\n</scene>",
                 "bad.xml:3: sensor 's': unknown joint 'nope'"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 1'/><joint name='h' "
                 "type='revolute' axis='0 0 1'/></body>\n<sensor type='imu' name='s' "
                 "body='nope'/>\n</scene>",
                 "bad.xml:3: sensor 's': unknown body 'nope'"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 1'/><joint name='h' "
                 "type='revolute' axis='0 0 1'/></body>\n<sensor type='force_torque' name='s' "
                 "body='b'/>\n</scene>",
                 "bad.xml:3: sensor 's': a force_torque sensor takes a joint, not a body"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 1'/><joint name='h' "
                 "type='revolute' axis='0 0 1'/></body>\n<sensor type='imu' name='s' body='b'/>\n"
                 "<sensor type='contact' name='s' body='b'/>\n</scene>",
                 "bad.xml:4: duplicate sensor name 's'"},
        BadScene{"<scene>\n<body name='b' mass='1' colour='red'/>\n</scene>",
                 "bad.xml:2: unknown attribute 'colour' on <body>"},
        BadScene{"<scene>\n<body mass='1'/>\n</scene>", "bad.xml:2: <body> needs attribute 'name'"},
        BadScene{"<scene>\n<body name='b'><geom type='box' size='1 1 1'/></body>\n</scene>",
                 "bad.xml:2: <body> needs attribute 'mass'"},
        BadScene{
            "<scene>\n<body name='b' mass='-2'><geom type='box' size='1 1 1'/></body>\n</scene>",
            "bad.xml:2: mass must be positive"},
        BadScene{"<scene>\n<body name='b' mass='abc'/>\n</scene>",
                 "bad.xml:2: attribute 'mass': 'abc' is not a number"},
        BadScene{"<scene>\n<body name='b' mass='inf'/>\n</scene>",
                 "bad.xml:2: attribute 'mass': 'inf' is not finite"},
        BadScene{"<scene>\n<body name='b' mass='1' inertia='1 0.1 0.1'/>\n</scene>",
                 "inertia violates the triangle inequality"},
        BadScene{"<scene>\n<body name='b' mass='1' inertia='1 -1 1'/>\n</scene>",
                 "inertia tensor must be positive definite"},
        BadScene{"<scene>\n<body name='b' mass='1'/>\n</scene>",
                 "bad.xml:2: no inertia given and its geoms have no volume"},
        BadScene{"<scene>\n<body name='b' mass='1' inertia='1 1'/>\n</scene>",
                 "inertia must be 3 numbers"},
        BadScene{"<scene>\n<body name='b' mass='1' pos='1 2'/>\n</scene>",
                 "attribute 'pos' must be 3 numbers"},
        BadScene{"<scene>\n<body name='b' mass='1' quat='0 0 0 0'/>\n</scene>", "zero quaternion"},
        BadScene{"<scene>\n<body name='b' mass='1'>\n<geom type='blob'/></body>\n</scene>",
                 "bad.xml:3: unknown geom type 'blob'"},
        BadScene{
            "<scene>\n<body name='b' mass='1'>\n<geom type='box' size='1 0 1'/></body>\n</scene>",
            "bad.xml:3: box size must be 3 positive numbers"},
        BadScene{
            "<scene>\n<body name='b' mass='1'>\n<geom type='sphere' radius='0'/></body>\n</scene>",
            "bad.xml:3: radius must be positive"},
        BadScene{"<scene>\n<body name='b' mass='1'>\n<geom type='mesh' "
                 "file='missing.obj'/></body>\n</scene>",
                 "bad.xml:3: mesh 'missing.obj': cannot open the file"},
        BadScene{"<scene>\n<body name='b' mass='1'>\n<geom type='box' size='1 1 1' "
                 "material='steel'/></body>\n</scene>",
                 "bad.xml:3: unknown material 'steel'"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 1'/>\n<geom "
                 "type='plane'/></body>\n</scene>",
                 "bad.xml:3: shape on body 'b': plane shapes are for static bodies only"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 1'/>\n<joint "
                 "name='j' type='hinge'/></body>\n</scene>",
                 "bad.xml:3: unknown joint type 'hinge'"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 1'/>\n<joint "
                 "name='j' type='revolute' axis='0 0 0'/></body>\n</scene>",
                 "bad.xml:3: joint axis is zero"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 1'/>\n<joint "
                 "name='j' type='revolute' range='1 -1'/></body>\n</scene>",
                 "bad.xml:3: range must be two increasing numbers"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 1'/>\n<joint "
                 "name='j' type='revolute' friction='-3'/></body>\n</scene>",
                 "friction must be one or two non-negative numbers"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 1'/></body>\n<body "
                 "name='b' mass='1'><geom type='box' size='1 1 1'/></body>\n</scene>",
                 "bad.xml:3: duplicate body name 'b'"},
        BadScene{"<scene>\n<material name='m'/>\n<material name='m'/>\n<body name='b' "
                 "mass='1'><geom type='box' size='1 1 1'/></body>\n</scene>",
                 "bad.xml:3: duplicate material name 'm'"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 1'/></body>\n<motor "
                 "name='m' joint='nope' stall_torque='1' no_load_speed='1' "
                 "time_constant='1'/>\n</scene>",
                 "bad.xml:3: motor 'm': unknown joint 'nope'"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 1'/><joint name='j' "
                 "type='revolute'/></body>\n<motor name='m' joint='j' stall_torque='1' "
                 "no_load_speed='1'/>\n</scene>",
                 "bad.xml:3: motor 'm': needs rotor_inertia or time_constant"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 1'/><joint name='j' "
                 "type='revolute'/></body>\n<repeater motor='x' joint='j' ratio='-1'/>\n</scene>",
                 "bad.xml:3: repeater: unknown motor 'x'"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 1'/></body>\n<camera "
                 "name='c' body='nobody'/>\n</scene>",
                 "bad.xml:3: camera 'c': unknown body 'nobody'"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 "
                 "1'/></body>\n<scheme>\n<block type='gain' name='g' k='1' "
                 "inputs='in=g'/>\n</scheme>\n</scene>",
                 "bad.xml:4: block 'g' (gain, line 4): algebraic loop g -> g"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 "
                 "1'/></body>\n<scheme>\n<block type='input' name='i' "
                 "channel='stick'/>\n</scheme>\n</scene>",
                 "bad.xml:4: block 'i' (input, line 4): unknown channel 'stick'"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 "
                 "1'/></body>\n<console>\n<knob name='k'/>\n</console>\n</scene>",
                 "bad.xml:4: unknown console control <knob>"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 "
                 "1'/></body>\n<console>\n<joystick name='j' x='a' y='b' "
                 "keys='WASDQ'/>\n</console>\n</scene>",
                 "bad.xml:4: keys: 'arrows' or four keys for up, left, down, right (e.g. "
                 "WASD), not 'WASDQ'"},
        BadScene{"<scene>\n<body name='b' mass='1'><geom type='box' size='1 1 "
                 "1'/></body>\n<console>\n<toggle name='a' channel='c'/>\n<button name='b' "
                 "channel='c'/>\n</console>\n</scene>",
                 "bad.xml:5: channel 'c' is fed by two controls"},
        BadScene{"<scene>\n<world step='0'/>\n<body name='b' mass='1'><geom type='box' size='1 1 "
                 "1'/></body>\n</scene>",
                 "bad.xml:2: need 0 < step <= frame"},
        // Grapples: what the snare holds and what it catches must exist and make sense.
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'/>\n<grapple name='g' "
                 "effector='a' target='nope'/>\n</scene>",
                 "bad.xml:3: grapple 'g': target: unknown body 'nope'"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'/>\n<body name='b' mass='1' "
                 "inertia='1 1 1'/>\n<grapple name='g' effector='a' target='b' axis='0 0 "
                 "0'/>\n</scene>",
                 "bad.xml:4: grapple 'g': zero or non-finite axis"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'/>\n<body name='b' mass='1' "
                 "inertia='1 1 1'/>\n<grapple name='g' effector='a' target='b' "
                 "capture_distance='-1'/>\n</scene>",
                 "bad.xml:4: grapple 'g': the capture distance must be positive (m)"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'/>\n<body name='b' mass='1' "
                 "inertia='1 1 1'/>\n<grapple name='g' effector='a' target='b'/>\n<grapple "
                 "name='g' effector='b' target='a'/>\n</scene>",
                 "bad.xml:5: duplicate grapple name 'g'"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'/>\n<scheme>\n<block "
                 "type='grapple' name='s' grapple='nope'/>\n</scheme>\n</scene>",
                 "unknown grapple 'nope'"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'/>\n<camera name='c' "
                 "body='a' fov='200 deg'/>\n</scene>",
                 "bad.xml:3: camera 'c': fov must be between 0 and 180 degrees"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'/>\n<camera name='c' "
                 "body='a' resolution='640.5 480'/>\n</scene>",
                 "bad.xml:3: camera 'c': resolution must be 2 whole numbers"},
        // <visual>: a missing or unreadable mesh or texture names the file.
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'>\n<visual "
                 "mesh='no-such-mesh.obj'/>\n</body>\n</scene>",
                 "bad.xml:3: visual mesh 'no-such-mesh.obj': cannot open"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'>\n<visual "
                 "mesh='/dev/null'/>\n</body>\n</scene>",
                 "bad.xml:3: visual mesh '/dev/null'"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'>\n<visual type='box' size='1 "
                 "1 1' texture='no-such.png'/>\n</body>\n</scene>",
                 "bad.xml:3: visual texture 'no-such.png': cannot open"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'>\n<visual/>\n</body>\n"
                 "</scene>",
                 "bad.xml:3: a <visual> needs a mesh file or a type"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'>\n<visual type='cone' "
                 "radius='1'/>\n</body>\n</scene>",
                 "bad.xml:3: unknown visual type 'cone'"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'>\n<visual type='sphere' "
                 "radius='1' color='1 0 2'/>\n</body>\n</scene>",
                 "bad.xml:3: color components are 0 to 1"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'>\n<visual type='sphere' "
                 "radius='1' track_motor='m' roll_radius='0.1'/>\n</body>\n</scene>",
                 "bad.xml:3: track_motor 'm' drives no track <geom> of this body"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'>\n<visual type='sphere' "
                 "radius='1' tread_pitch='0.1'/>\n</body>\n</scene>",
                 "bad.xml:3: roll_radius and tread_pitch need the track_motor they follow"},
        // <light> and <fog>.
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'/>\n<light name='l' "
                 "body='b'/>\n</scene>",
                 "bad.xml:3: light 'l': unknown body 'b'"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'/>\n<light name='l' "
                 "body='a' dir='0 0 0'/>\n</scene>",
                 "bad.xml:3: light 'l': dir is a zero vector"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'/>\n<light name='l' "
                 "body='a' half_angle='100 deg'/>\n</scene>",
                 "bad.xml:3: light 'l': half_angle must be above 0 and at most 90 degrees"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'/>\n<light name='l' "
                 "body='a' range='0'/>\n</scene>",
                 "bad.xml:3: light 'l': range must be > 0"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'/>\n<light name='l' "
                 "body='a' color='1 1'/>\n</scene>",
                 "bad.xml:3: color must be 3 numbers"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'/>\n<light name='l' "
                 "body='a' signal='lamp.switch'/>\n</scene>",
                 "bad.xml:3: light 'l': signal: "},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'/>\n<fog start='10' "
                 "end='5'/>\n</scene>",
                 "bad.xml:3: fog needs 0 <= start < end"},
        BadScene{"<scene>\n<body name='a' mass='1' inertia='1 1 1'/>\n<fog/>\n<fog/>\n"
                 "</scene>",
                 "bad.xml:4: a scene has at most one <fog>"}));

/// Writes `text` to `dir/name` (the directory is created).
std::string writeFile(const std::filesystem::path& dir, const std::string& name,
                      const std::string& text) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir / name) << text;
  return (dir / name).string();
}

TEST(SceneLoader, IncludePlacesARobotFileWithItsMotorsAndScheme) {
  const auto dir = std::filesystem::temp_directory_path() / "impetus_include_test";
  writeFile(dir / "robots", "arm.xml", R"(<robot name="arm">
  <material name="steel" friction="0.4"/>
  <body name="base" fixed="true"><geom type="box" size="0.2 0.2 0.2"/></body>
  <body name="link" pos="0.45 0 0" mass="2"><geom type="box" size="0.4 0.05 0.05"/>
    <joint name="shoulder" type="revolute" pos="-0.2 0 0" axis="0 0 1"/></body>
  <motor name="m" joint="shoulder" stall_torque="0.2" no_load_speed="500 rpm" time_constant="0.05" gear_ratio="20"/>
  <console><slider name="speed" channel="arm.speed"/></console>
  <scheme><block type="input" name="u" channel="arm.speed"/>
          <block type="motor" name="out" motor="m" inputs="in=u"/></scheme>
</robot>)");
  const std::string main = writeFile(dir, "main.xml", R"(<scene name="with arm">
  <body name="floor" fixed="true"><geom type="plane"/></body>
  <include file="robots/arm.xml" pos="1 2 0.5" quat="0.70710678 0 0 0.70710678"/>
</scene>)");
  LoadedScene s = loadScene(main);
  const BodyId link = s.world->findBody("link");
  ASSERT_GE(link, 0);
  // Placed by the include: (0.45, 0, 0) turned 90 degrees about z, then moved to (1, 2, 0.5).
  EXPECT_NEAR((s.world->body(link).position - Vec3(1, 2.45, 0.5)).norm(), 0.0, 1e-9);
  ASSERT_TRUE(s.scheme.has_value());
  for (int i = 0; i < 100; ++i) {
    s.scheme->step(std::vector<double>{1.0}, s.step);
    ASSERT_TRUE(s.world->step(s.step).ok);
  }
  EXPECT_GT(s.world->findJoint("shoulder")->rate(), 0.5 * (500 * 2 * 3.14159 / 60) / 20);
}

TEST(SceneLoader, IncludeCyclesAndMissingFilesAreNamed) {
  const auto dir = std::filesystem::temp_directory_path() / "impetus_include_cycle";
  writeFile(dir, "a.xml", "<robot>\n<include file='b.xml'/>\n</robot>");
  writeFile(dir, "b.xml", "<robot>\n\n<include file='a.xml'/>\n</robot>");
  const std::string main = writeFile(dir, "main.xml",
                                     "<scene>\n<body name='f' fixed='true'><geom "
                                     "type='plane'/></body>\n<include file='a.xml'/>\n</scene>");
  try {
    loadScene(main);
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("b.xml:3: include cycle: a.xml -> b.xml -> a.xml"),
              std::string::npos)
        << e.what();
  }
  const std::string missing =
      writeFile(dir, "missing.xml",
                "<scene>\n<body name='f' fixed='true'><geom type='plane'/></body>\n<include "
                "file='nope.xml'/>\n</scene>");
  try {
    loadScene(missing);
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "missing.xml:3: cannot include 'nope.xml': cannot open the file"),
              std::string::npos)
        << e.what();
  }
  const std::string world =
      writeFile(dir, "robot_world.xml", "<robot>\n<world step='0.01'/>\n</robot>");
  const std::string usesIt =
      writeFile(dir, "uses.xml",
                "<scene>\n<body name='f' fixed='true'><geom type='plane'/></body>\n<include "
                "file='robot_world.xml'/>\n</scene>");
  try {
    loadScene(usesIt);
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("robot_world.xml:2: unknown element <world>"),
              std::string::npos)
        << e.what();
  }
}

TEST(SceneLoader, MissingFileIsAClearError) {
  try {
    loadScene("/no/such/scene.xml");
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("/no/such/scene.xml:0: cannot open the file"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace impetus

namespace impetus {
namespace {

TEST(SceneLoader, WorldSleepAttributesSetTheSleepSettings) {
  const std::string box = "<body name='b' mass='1'><geom type='box' size='1 1 1'/></body>";
  const LoadedScene on =
      loadSceneText("<scene><world sleep_time='2'/>" + box + "</scene>", "on.xml");
  EXPECT_TRUE(on.world->settings().sleep.enabled);  // the default
  EXPECT_EQ(on.world->settings().sleep.timeToSleep, 2.0);
  const LoadedScene off =
      loadSceneText("<scene><world sleep='false'/>" + box + "</scene>", "off.xml");
  EXPECT_FALSE(off.world->settings().sleep.enabled);
}

TEST(SceneLoader, ExcludedBodiesPassThroughEachOtherAndBadExcludesAreNamed) {
  const auto dir = std::filesystem::temp_directory_path() / "impetus_exclude";
  // Two boxes dropped onto the same spot: without the exclude the upper one rests on the lower.
  const auto scene = [&](const std::string& exclude) {
    return writeFile(dir, "s.xml",
                     "<scene>\n<body name='f' fixed='true'><geom type='plane'/></body>\n"
                     "<body name='a' pos='0 0 0.05' mass='1'><geom type='box' size='0.1 0.1 "
                     "0.1'/></body>\n<body name='b' pos='0 0 0.3' mass='1'><geom type='box' "
                     "size='0.1 0.1 0.1'/></body>\n" +
                         exclude + "</scene>");
  };
  for (const bool excluded : {false, true}) {
    LoadedScene s = loadScene(scene(excluded ? "<exclude body1='a' body2='b'/>\n" : ""));
    for (int i = 0; i < 100; ++i) ASSERT_TRUE(s.world->step(0.01).ok);
    const double top = s.world->body(s.world->findBody("b")).position.z();
    if (excluded)
      EXPECT_NEAR(top, 0.05, 2e-3);  // through the lower box, onto the floor
    else
      EXPECT_NEAR(top, 0.15, 2e-3);  // on the lower box
  }
  try {
    loadScene(scene("<exclude body1='a' body2='nope'/>\n"));
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("s.xml:5: body2: unknown body 'nope'"), std::string::npos)
        << e.what();
  }
}

TEST(SceneLoader, VisualsFollowTheirBodiesAndTracks) {
  // Two prefixed MF-4s: each copy's visuals are its own bodies', and each track's running gear
  // follows its own copy's track motor (the include's prefix resolves track_motor).
  const LoadedScene s = loadScene(kScenes + "/mf4-team.xml");
  int belts = 0, wheels = 0;
  for (const VisualDesc& v : s.visuals) {
    ASSERT_GE(v.body, 0);
    ASSERT_LT(v.body, s.world->bodyCount());
    if (v.trackMotor < 0) continue;
    const std::string& motor = s.world->motor(v.trackMotor).name();
    const std::string& body = s.world->body(v.body).name;
    EXPECT_EQ(motor.substr(0, motor.find('_')), body.substr(0, body.find('_'))) << motor;
    EXPECT_NEAR(v.beltPerRotorRadian, 0.09 / 60.0, 1e-15);  // sprocket radius / gear ratio
    belts += v.treadPitch > 0.0 ? 1 : 0;
    wheels += v.rollRadius > 0.0 ? 1 : 0;
    EXPECT_TRUE(v.kind == VisualDesc::Kind::Mesh && std::filesystem::exists(v.mesh)) << v.mesh;
  }
  EXPECT_EQ(belts, 4);        // two tracks a robot
  EXPECT_EQ(wheels, 2 * 12);  // a sprocket, an idler and four road wheels a track
}

TEST(SceneLoader, EachCopyOfARobotCarriesItsOwnHeadlightOnItsOwnSwitch) {
  LoadedScene s = loadScene(kScenes + "/mf4-team.xml");
  ASSERT_EQ(s.lights.size(), 2u);
  EXPECT_FALSE(s.fog);
  for (const LightDesc& l : s.lights) {
    const std::string prefix = l.name.substr(0, l.name.find('_') + 1);
    EXPECT_TRUE(prefix == "red_" || prefix == "blue_") << l.name;
    EXPECT_EQ(l.name, prefix + "headlight");
    EXPECT_EQ(s.world->body(l.body).name, prefix + "hull");
    EXPECT_NEAR(l.direction.norm(), 1.0, 1e-12);
    EXPECT_NEAR(l.halfAngle, 32.0 * std::numbers::pi / 180.0, 1e-12);
    // The switch is this copy's console toggle: on with its channel, off with the other's.
    const Probe on = resolveIndicatorSignal(*s.world, &*s.scheme, l.signal);
    const std::vector<std::string> channels = s.console.channels();
    std::vector<double> input(channels.size(), 0.0);
    for (size_t i = 0; i < channels.size(); ++i)
      if (channels[i] != prefix + "light" && channels[i].ends_with("light")) input[i] = 1.0;
    s.scheme->step(input, s.step);
    EXPECT_LT(on(), 0.5) << l.name;
    for (size_t i = 0; i < channels.size(); ++i) input[i] = channels[i] == prefix + "light";
    s.scheme->step(input, s.step);
    EXPECT_GT(on(), 0.5) << l.name;
  }
}

}  // namespace
}  // namespace impetus
