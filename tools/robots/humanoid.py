#!/usr/bin/env python3
"""Writes scenes/robots/humanoid.xml: an F-850 / FEDOR-class humanoid (seed 002).

The robot is described here as numbers (every one an assumption, documented in
scenes/README.md, "The humanoid"); the XML is generated because a body's position in the scene
format is relative to its parent's centre of mass and the robot is assembled in its walking
posture (knees bent), which makes hand-written coordinates error-prone.
Run: python3 tools/robots/humanoid.py > scenes/robots/humanoid.xml
"""
import math
import sys

# --- Dimensions (m) and masses (kg) --------------------------------------------------------
ANKLE_HEIGHT = 0.10      # ankle axes above the sole
THIGH, SHIN = 0.40, 0.40
HIP_Y = 0.10             # hip centres either side of the pelvis centre
HIP_HEIGHT = 0.83        # hip centres above the ground, walking posture
BEND = math.acos((HIP_HEIGHT - ANKLE_HEIGHT) / (THIGH + SHIN))  # thigh from vertical
FOOT = (0.24, 0.13, 0.04)  # sole length, width, thickness
FOOT_X = 0.025             # sole centre ahead of the ankle
SHOULDER_Y, SHOULDER_Z = 0.27, 1.43
UPPER_ARM, FOREARM, HAND = 0.28, 0.26, 0.10
ELBOW_BEND = math.radians(50)  # forearm forward of vertical, as assembled

M = dict(pelvis=12.0, torso=39.0, neck=0.4, head=4.0,
         hip_yaw=1.2, hip_roll=1.8, thigh=7.5, shin=4.5, ankle=0.6, foot=1.6,
         shoulder_pitch=1.0, shoulder_roll=1.0, upper_arm=2.4, forearm=1.8,
         forearm_roll=0.6, wrist_pitch=0.3, hand=0.6, jaw=0.15)

# --- Gearmotors (rotor side: stall torque N m, no-load rpm, t_m s; gear ratio) -------------
MOTORS = {
    # brushless 200 W class (maxon EC-4pole 30 class), strain-wave gear
    "large": dict(stall=2.5, rpm=15000, tm=0.004, gear=160),
    # 120 W class
    "medium": dict(stall=1.5, rpm=12000, tm=0.004, gear=160),
    # 60 W class
    "small": dict(stall=0.6, rpm=10000, tm=0.004, gear=160),
    # 20 W class
    "tiny": dict(stall=0.2, rpm=10000, tm=0.004, gear=100),
}
JOINT_MOTOR = dict(hip_yaw="medium", hip_roll="large", hip_pitch="large", knee="large",
                   ankle_pitch="large", ankle_roll="medium", waist="large", neck_yaw="tiny",
                   neck_pitch="tiny", shoulder_pitch="medium", shoulder_roll="medium",
                   shoulder_yaw="small", elbow="small", forearm_roll="tiny", wrist_pitch="tiny",
                   wrist_yaw="tiny")
# Servo gains: normalised volts per rad (kp) and per rad/s (kd) at the joint.
SERVO = dict(large=(30.0, 0.3), medium=(30.0, 0.3), small=(20.0, 0.2), tiny=(10.0, 0.1))
# The legs' are stiffer: a body that sags on its leg servos (1 Hz at 30) rocks on its soles.
LEG_SERVO = (100.0, 0.3)


HOLD = '--hold' in sys.argv  # servos hold the assembled posture (no gait controller)


def v(x):
    return " ".join(f"{c:.6g}" for c in x)


def add(a, b):
    return tuple(x + y for x, y in zip(a, b))


def sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def scale(a, s):
    return tuple(x * s for x in a)


def quat_y(angle):
    """Quaternion (w x y z) of a rotation about +y."""
    return (math.cos(angle / 2), 0.0, math.sin(angle / 2), 0.0)


# --- Visuals: what the renderer draws in place of the boxes (the physics keeps the boxes) ----
SHELL = (0.9, 0.9, 0.88)     # white shell panels
JOINT = (0.24, 0.25, 0.27)   # actuator housings, gripper jaws
ACCENT = (0.86, 0.42, 0.1)   # stripes
VISOR = (0.06, 0.08, 0.11)   # the head's camera window
SOLE = (0.12, 0.12, 0.13)
LIMBS = ("thigh", "shin", "upper_arm", "forearm")
ACTUATORS = ("hip_yaw", "hip_roll", "ankle", "shoulder_pitch", "shoulder_roll", "forearm_roll",
             "wrist_pitch", "neck")


def quat_z_to(axis):
    """Quaternion (w x y z) turning +z onto the unit vector `axis`."""
    c = axis[2]
    if c > 1 - 1e-12:
        return None
    if c < -1 + 1e-12:
        return (0.0, 1.0, 0.0, 0.0)
    k = (-axis[1], axis[0], 0.0)  # z x axis
    n = math.sqrt(k[0] ** 2 + k[1] ** 2)
    half = math.acos(c) / 2
    return (math.cos(half), math.sin(half) * k[0] / n, math.sin(half) * k[1] / n, 0.0)


def colour(c):
    return " ".join(f"{x:g}" for x in c)


def shaped(body):
    """The body's visuals: (kind, dims, at, quat, colour), world posture coordinates."""
    name = body.name.rsplit("_", 1)[0] if body.name[-2:] in ("_l", "_r") else body.name
    kind, size, at, q, mat = body.geoms[0]
    if name in LIMBS:  # a rounded limb along its box, a stripe down its front
        r = 0.48 * min(size[0], size[1])
        out = [("capsule", (r, size[2] + 0.04 - 2 * r), at, q, SHELL)]
        return out
    if name in ACTUATORS:  # a drum about the joint's axis
        axis = body.joint[3]
        across = max(size[0], size[1], size[2])
        along = sum(abs(a) * d for a, d in zip(axis, size))
        return [("cylinder", (0.5 * across, along), at, quat_z_to(axis), JOINT)]
    if name == "pelvis":
        return [("box", (size[0] - 0.02, size[1] - 0.02, size[2]), at, None, SHELL),
                ("cylinder", (0.075, size[1] + 0.02), add(at, (0, 0, -0.03)),
                 quat_z_to((0, 1, 0)), JOINT)]
    if name == "torso":  # chest, abdomen, shoulder yoke, a stripe across the chest
        chest = add(at, (0, 0, 0.07))
        return [("box", (size[0], size[1] - 0.04, 0.30), chest, None, SHELL),
                ("box", (size[0] - 0.06, size[1] - 0.14, 0.16), add(at, (0, 0, -0.15)), None, JOINT),
                ("capsule", (0.07, size[1] - 0.14), add(at, (0, 0, 0.17)), quat_z_to((0, 1, 0)), SHELL),
                ("box", (0.01, size[1] - 0.1, 0.05), add(chest, (size[0] / 2 + 0.004, 0, 0.04)), None, ACCENT)]
    if name == "head":  # a helmet with the camera window in front
        return [("capsule", (0.095, size[2] - 0.19), at, None, SHELL),
                ("box", (0.03, 0.15, 0.07), add(at, (0.08, 0, 0.02)), None, VISOR)]
    if name == "hand":
        return [("box", size, at, q, SHELL)]
    if name in ("jaw_a", "jaw_b"):
        return [("box", size, at, q, JOINT)]
    if name == "foot":
        sole = body.geoms[1]
        return [("box", size, at, None, SOLE),
                ("box", (size[0] - 0.04, size[1] - 0.02, 0.03), add(at, (-0.01, 0, 0.035)), None, SHELL),
                ("cylinder", (0.045, sole[1][1] + 0.02), sole[2], quat_z_to((1, 0, 0)), JOINT)]
    return []


class Body:
    def __init__(self, name, com, mass, geoms, joint=None):
        self.name, self.com, self.mass, self.geoms, self.joint = name, com, mass, geoms, joint
        self.children = []

    def child(self, b):
        self.children.append(b)
        return b

    def xml(self, parent_com, indent):
        pad = " " * indent
        rel = sub(self.com, parent_com)
        out = [f'{pad}<body name="{self.name}" pos="{v(rel)}" mass="{self.mass:g}">']
        for g in self.geoms:
            kind, size, at, q, mat = g
            extra = f' quat="{v(q)}"' if q else ""
            sz = f'size="{v(size)}"' if kind == "box" else f'radius="{size[0]:g}" length="{size[1]:g}"'
            out.append(f'{pad}  <geom type="{kind}" {sz} pos="{v(sub(at, self.com))}"{extra} material="{mat}"/>')
        for kind, dims, at, q, c in shaped(self):
            extra = f' quat="{v(q)}"' if q else ""
            sz = (f'size="{v(dims)}"' if kind == "box" else
                  f'radius="{dims[0]:g}" length="{dims[1]:g}"')
            out.append(f'{pad}  <visual type="{kind}" {sz} pos="{v(sub(at, self.com))}"{extra} color="{colour(c)}"/>')
        if self.joint:
            name, kind, at, axis, rng = self.joint
            r = ("" if rng is None else f' range="{rng[0]:.4g} deg {rng[1]:.4g} deg"' if kind == "revolute"
                 else f' range="{rng[0]:g} {rng[1]:g}"')
            out.append(f'{pad}  <joint name="{name}" type="{kind}" pos="{v(sub(at, self.com))}" axis="{v(axis)}"{r}/>')
        for c in self.children:
            out.extend(c.xml(self.com, indent + 2))
        out.append(f"{pad}</body>")
        return out


def box(size, at, q=None, mat="hum_shell"):
    return ("box", size, at, q, mat)


def leg(pelvis, side):
    s = 1 if side == "l" else -1
    hip = (0.0, s * HIP_Y, HIP_HEIGHT)
    knee = add(hip, (THIGH * math.sin(BEND), 0, -THIGH * math.cos(BEND)))
    ankle = (0.0, s * HIP_Y, ANKLE_HEIGHT)
    deg = math.degrees(BEND)
    yaw = pelvis.child(Body(f"hip_yaw_{side}", add(hip, (0, 0, 0.06)), M["hip_yaw"],
                            [box((0.08, 0.08, 0.05), add(hip, (0, 0, 0.06)))],
                            (f"hip_yaw_{side}", "revolute", hip, (0, 0, 1), (-45, 45))))
    roll = yaw.child(Body(f"hip_roll_{side}", hip, M["hip_roll"],
                          [box((0.10, 0.07, 0.07), hip)],
                          (f"hip_roll_{side}", "revolute", hip, (1, 0, 0),
                           (-30, 45) if s > 0 else (-45, 30))))
    thigh_mid = scale(add(hip, knee), 0.5)
    thigh = roll.child(Body(f"thigh_{side}", thigh_mid, M["thigh"],
                            [box((0.11, 0.11, THIGH - 0.10), thigh_mid, quat_y(-BEND))],
                            (f"hip_pitch_{side}", "revolute", hip, (0, 1, 0),
                             (-100 + deg, 30 + deg))))
    shin_mid = scale(add(knee, ankle), 0.5)
    shin = thigh.child(Body(f"shin_{side}", shin_mid, M["shin"],
                            [box((0.09, 0.09, SHIN - 0.10), shin_mid, quat_y(BEND))],
                            (f"knee_{side}", "revolute", knee, (0, 1, 0),
                             (-2 * deg + 2, 130 - 2 * deg))))
    ank = shin.child(Body(f"ankle_{side}", ankle, M["ankle"], [box((0.05, 0.06, 0.05), ankle)],
                          (f"ankle_pitch_{side}", "revolute", ankle, (0, 1, 0),
                           (-60 + deg, 40 + deg))))
    sole = add(ankle, (FOOT_X, 0, FOOT[2] / 2 - ANKLE_HEIGHT))
    ank.child(Body(f"foot_{side}", add(sole, (0, 0, 0.02)), M["foot"],
                   [box(FOOT, sole, mat="hum_sole"),
                    box((0.08, 0.07, 0.04), add(ankle, (0, 0, -0.04)))],
                   (f"ankle_roll_{side}", "revolute", ankle, (1, 0, 0), (-30, 30))))
    return [f"hip_yaw_{side}", f"hip_roll_{side}", f"hip_pitch_{side}", f"knee_{side}",
            f"ankle_pitch_{side}", f"ankle_roll_{side}"]


GRASP = {}
# The hands' admittance (m/s per N of contact force, hands.comply on): steered into a wall at the
# full 0.1 m/s a hand presses with 50 N. The loop with the arm's servo stiffness at the hand
# (some 1e4 N/m) is stable below 2 / (dt k) = 0.02.
ADMITTANCE = 0.002


def arm(torso, side):
    s = 1 if side == "l" else -1
    sh = (0.0, s * SHOULDER_Y, SHOULDER_Z)
    elbow = add(sh, (0, 0, -UPPER_ARM))
    fd = (math.sin(ELBOW_BEND), 0.0, -math.cos(ELBOW_BEND))  # forearm direction
    wrist = add(elbow, scale(fd, FOREARM))
    q_fore = quat_y(-ELBOW_BEND)
    p = torso.child(Body(f"shoulder_pitch_{side}", sh, M["shoulder_pitch"],
                         [box((0.08, 0.06, 0.08), sh)],
                         (f"shoulder_pitch_{side}", "revolute", sh, (0, 1, 0), (-180, 60))))
    r = p.child(Body(f"shoulder_roll_{side}", add(sh, (0, 0, -0.05)), M["shoulder_roll"],
                     [box((0.07, 0.07, 0.06), add(sh, (0, 0, -0.05)))],
                     (f"shoulder_roll_{side}", "revolute", sh, (1, 0, 0),
                      (-10, 120) if s > 0 else (-120, 10))))
    ua_mid = add(sh, (0, 0, -UPPER_ARM / 2 - 0.03))
    ua = r.child(Body(f"upper_arm_{side}", ua_mid, M["upper_arm"],
                      [box((0.08, 0.08, UPPER_ARM - 0.10), ua_mid)],
                      (f"shoulder_yaw_{side}", "revolute", sh, (0, 0, 1), (-90, 90))))
    fa_mid = add(elbow, scale(fd, FOREARM / 2))
    fa = ua.child(Body(f"forearm_{side}", fa_mid, M["forearm"],
                       [box((0.07, 0.07, FOREARM - 0.08), fa_mid, q_fore)],
                       (f"elbow_{side}", "revolute", elbow, (0, 1, 0),
                        (-140 + math.degrees(ELBOW_BEND), math.degrees(ELBOW_BEND)))))
    wy = fa.child(Body(f"forearm_roll_{side}", add(wrist, scale(fd, -0.03)), M["forearm_roll"],
                       [box((0.05, 0.05, 0.04), add(wrist, scale(fd, -0.03)), q_fore)],
                       (f"forearm_roll_{side}", "revolute", wrist, scale(fd, -1), (-120, 120))))
    wp = wy.child(Body(f"wrist_pitch_{side}", wrist, M["wrist_pitch"],
                       [box((0.04, 0.05, 0.04), wrist, q_fore)],
                       (f"wrist_pitch_{side}", "revolute", wrist, (0, 1, 0), (-80, 80))))
    palm = add(wrist, scale(fd, 0.05))
    hand = wp.child(Body(f"hand_{side}", palm, M["hand"],
                         [box((0.05, 0.09, 0.06), palm, q_fore)],
                         # Deviation: about the axis across both the forearm and the pitch
                         # axis, so the wrist is singular only at +-90 degrees of pitch (a second
                         # roll about the hand would line up with the forearm's in the straight
                         # rest pose, and the hand's inverse kinematics wind the two up).
                         (f"wrist_yaw_{side}", "revolute", wrist, (-fd[2], 0.0, fd[0]), (-80, 80))))
    tip = add(wrist, scale(fd, 0.08 + HAND / 2))
    # Both jaws slide along -y: jaw a (at +y) closes as its coordinate grows, jaw b (at -y) as
    # its coordinate falls, which the repeater's k = -1 makes it do (as the MF-4's jaws). The
    # stops are jaw a's, the screw's travel; a second pair on jaw b would only repeat them.
    for jaw, sy in (("a", 1), ("b", -1)):
        at = add(tip, (0, sy * 0.04, 0))
        hand.child(Body(f"jaw_{jaw}_{side}", at, M["jaw"],
                        [box((0.015, 0.015, HAND), at, q_fore, mat="hum_sole")],
                        (f"jaw_{jaw}_{side}", "prismatic", at, (0, -1, 0), (0, 0.03) if sy > 0 else None)))
    GRASP[side] = sub(tip, palm)  # the grasp point between the jaws, hand body frame
    return [f"shoulder_pitch_{side}", f"shoulder_roll_{side}", f"shoulder_yaw_{side}",
            f"elbow_{side}", f"forearm_roll_{side}", f"wrist_pitch_{side}", f"wrist_yaw_{side}"]


# The gripper: 10:1 gear and a 20 mm/rev screw (3.183 mm/rad: 1.9 kg of rotor inertia a jaw; at
# 2 and 8 mm/rev, 190 and 12 kg, the contact solver let a squeezing jaw sink through what it
# held), closed by a share of its stall torque; the valve's 8 N m breakaway at 0.2 m asks 20 N a
# hand.
GRIP_STALL, GRIP_GEAR, GRIP_LEAD = 0.05, 10, 0.0031831
GRIP_SQUEEZE = 0.25


def grip_force():
    return GRIP_SQUEEZE * GRIP_STALL * GRIP_GEAR / GRIP_LEAD


def main():
    pelvis_c = (0.0, 0.0, HIP_HEIGHT + 0.10)
    pelvis = Body("pelvis", pelvis_c, M["pelvis"], [box((0.20, 0.28, 0.14), pelvis_c)])
    torso_c = (-0.01, 0.0, 1.25)
    torso = pelvis.child(Body("torso", torso_c, M["torso"],
                              [box((0.24, 0.40, 0.44), (-0.01, 0, 1.24))],
                              ("waist", "revolute", (0, 0, 1.01), (0, 0, 1), (-90, 90))))
    neck = torso.child(Body("neck", (0, 0, 1.50), M["neck"], [box((0.06, 0.06, 0.04), (0, 0, 1.50))],
                            ("neck_yaw", "revolute", (0, 0, 1.47), (0, 0, 1), (-90, 90))))
    neck.child(Body("head", (0.01, 0, 1.66), M["head"], [box((0.20, 0.18, 0.24), (0.01, 0, 1.68))],
                    ("neck_pitch", "revolute", (0, 0, 1.53), (0, 1, 0), (-30, 45))))
    legs = leg(pelvis, "l") + leg(pelvis, "r")
    arms = arm(torso, "l") + arm(torso, "r")
    upper = ["waist", "neck_yaw", "neck_pitch"]

    out = []
    w = out.append
    w("<!-- Generated by tools/robots/humanoid.py - edit that script, not this file.")
    w("     An F-850 / FEDOR-class humanoid (seed 002): 1.80 m, %.1f kg, legs of 6 DOF, arms of 7 DOF"
      % (sum(M[k] for k in ("pelvis", "torso", "neck", "head")) +
         2 * sum(M[k] for k in ("hip_yaw", "hip_roll", "thigh", "shin", "ankle", "foot")) +
         2 * sum(M[k] for k in ("shoulder_pitch", "shoulder_roll", "upper_arm", "forearm",
                                "forearm_roll", "wrist_pitch", "hand")) + 4 * M["jaw"]))
    w("     with a one-motor two-jaw gripper, a 2-DOF neck, every joint on a DC gearmotor. No public")
    w("     datasheet exists: every number is an assumption (scenes/README.md, \"The humanoid\").")
    w("     Robot frame: x forward, z up, origin on the ground between the feet. Assembled in the")
    w("     walking posture: knees bent %.1f degrees, hips %.2f m above the ground. -->"
      % (2 * math.degrees(BEND), HIP_HEIGHT))
    w('<robot name="humanoid">')
    w('  <material name="hum_shell" friction="0.5" restitution="0.1" shared="true"/>')
    w('  <material name="hum_sole" friction="1.0" restitution="0.0" rolling="0.002" spinning="0.005"\n            shared="true"/>')
    w("")
    out.extend(pelvis.xml((0, 0, 0), 2))
    w("")
    # Links whose boxes meet near a joint they do not share.
    pairs = [("pelvis", "thigh_l"), ("pelvis", "thigh_r"), ("pelvis", "hip_roll_l"),
             ("pelvis", "hip_roll_r"), ("hip_yaw_l", "thigh_l"), ("hip_yaw_r", "thigh_r"),
             ("thigh_l", "ankle_l"), ("thigh_r", "ankle_r"), ("shin_l", "foot_l"),
             ("shin_r", "foot_r"), ("torso", "neck"), ("torso", "head"),
             ("pelvis", "torso")]
    for sd in "lr":
        pairs += [("torso", f"shoulder_roll_{sd}"), ("torso", f"upper_arm_{sd}"),
                  (f"shoulder_pitch_{sd}", f"upper_arm_{sd}"), (f"upper_arm_{sd}", f"forearm_roll_{sd}"),
                  (f"forearm_{sd}", f"wrist_pitch_{sd}"), (f"forearm_{sd}", f"hand_{sd}"),
                  (f"forearm_roll_{sd}", f"hand_{sd}"), (f"wrist_pitch_{sd}", f"jaw_a_{sd}"),
                  (f"wrist_pitch_{sd}", f"jaw_b_{sd}"), (f"jaw_a_{sd}", f"jaw_b_{sd}")]
    for a, b in pairs:
        w(f'  <exclude body1="{a}" body2="{b}"/>')
    w("")
    for j in legs + upper + arms:
        kind = JOINT_MOTOR[j[:-2] if j[-2:] in ("_l", "_r") else j]
        m = MOTORS[kind]
        w(f'  <motor name="{j}_motor" joint="{j}" stall_torque="{m["stall"]:g}" '
          f'no_load_speed="{m["rpm"]} rpm" time_constant="{m["tm"]:g}" gear_ratio="{m["gear"]}"/>')
    for sd in "lr":
        # Gripper: one motor and a repeater (seed 001).
        w(f'  <motor name="grip_{sd}_motor" joint="jaw_a_{sd}" stall_torque="{GRIP_STALL:g}" '
          f'no_load_speed="10000 rpm" time_constant="0.004" gear_ratio="{GRIP_GEAR}" lead="{GRIP_LEAD}"/>')
        w(f'  <repeater motor="grip_{sd}_motor" joint="jaw_b_{sd}" ratio="-1"/>')
    w("")
    w('  <sensor type="imu" name="pelvis_imu" body="pelvis"/>')
    w('  <sensor type="force_torque" name="ft_l" joint="ankle_roll_l"/>')
    w('  <sensor type="force_torque" name="ft_r" joint="ankle_roll_r"/>')
    w('  <sensor type="force_torque" name="wrist_ft_left" joint="wrist_yaw_l"/>')
    w('  <sensor type="force_torque" name="wrist_ft_right" joint="wrist_yaw_r"/>')
    w('  <camera name="head_camera" body="head" pos="0.1 0 0.02" quat="0.5 0.5 -0.5 -0.5"/>')
    w("")
    w("  <console>")
    w('    <joystick name="walk" label="Walk (forward, sideways)" x="walk.lateral" y="walk.forward" invert_x="true" keys="WASD" joystick="axis0 axis1"/>')
    w('    <joystick name="turn" label="Turn, look up and down" x="walk.turn" y="head.tilt" invert_x="true" keys="arrows" joystick="axis2 axis3"/>')
    if not HOLD:
        w('    <joystick name="hand_move" label="Hand (forward, sideways)" x="hand.y" y="hand.x" invert_x="true" keys="IJKL"/>')
        w('    <joystick name="hand_lift" label="Hand (up, turn about z)" x="hand.yaw" y="hand.z" invert_x="true" keys="8456"/>')
        w('    <joystick name="hand_turn" label="Hand (roll, pitch)" x="hand.roll" y="hand.pitch"/>')
        w('    <toggle name="hand_select" label="Steer the right hand (off: the left)" channel="hand.select" keys="H"/>')
        w('    <toggle name="hands_frame" label="Hands steer in their own frame (off: the robot\'s)" channel="hands.frame" keys="F"/>')
        w('    <toggle name="hands_comply" label="Hands comply: pushed, they give way (admittance)" channel="hands.comply" keys="C"/>')
        w('    <toggle name="hands_grip" label="Grippers closed (off: open)" channel="hands.grip" keys="G"/>')
        w('    <slider name="valve_turn" label="Turn the held wheel (+ opens, - closes)" channel="valve.turn" min="-1" max="1"/>')
        w('    <readout name="grip_force_left" label="Left grip force (N)" signal="joint.jaw_a_l.force"/>')
        w('    <readout name="grip_force_right" label="Right grip force (N)" signal="joint.jaw_a_r.force"/>')
        w('    <readout name="hand_force_left" label="Left hand contact force (N)" signal="hand_left.force"/>')
        w('    <readout name="hand_force_right" label="Right hand contact force (N)" signal="hand_right.force"/>')
        w('    <readout name="gait_state" label="Gait (0 standing, 1 walking, 2 stopping, 3 fallen)" signal="gait.state"/>')
        w('    <lamp name="fallen_lamp" label="Fallen: drives relaxed" signal="fallen"/>')
    w("  </console>")
    w("")
    w("  <scheme>")
    if not HOLD:
        w('    <block type="input" name="forward" channel="walk.forward"/>')
        w('    <block type="input" name="lateral" channel="walk.lateral"/>')
        w('    <block type="input" name="turn" channel="walk.turn"/>')
        w('    <block type="walking" name="gait" pelvis="pelvis" imu="pelvis_imu" ft_left="ft_l" ft_right="ft_r"')
        w('           foot_left="foot_l" foot_right="foot_r"')
        w('           leg_left="' + " ".join(legs[:6]) + '"')
        w('           leg_right="' + " ".join(legs[6:]) + '"')
        w(f'           ankle_height="{ANKLE_HEIGHT:g}" sole_length="{FOOT[0]:g}" sole_width="{FOOT[1]:g}"'
          f' sole_forward="{FOOT_X:g}" half_width="{HIP_Y:g}"')
        w('           inputs="forward=forward lateral=lateral turn=turn"/>')
        # The hands, steered by one set of sticks (in [-1, 1]; hand.select picks the hand) in the
        # robot's frame or, with hands.frame high, each hand's own.
        w('    <block type="input" name="hands_frame" channel="hands.frame"/>')
        w('    <block type="input" name="hands_comply" channel="hands.comply"/>')
        w('    <block type="input" name="hand_select" channel="hand.select"/>')
        # The assisted wheel turn: with both grippers closed on a rim, valve.turn drives both
        # hands round it (regrasping at the ends of their reach), complying across the path.
        w('    <block type="input" name="hands_grip" channel="hands.grip"/>')
        w('    <block type="input" name="valve_turn" channel="valve.turn"/>')
        w('    <block type="wheel_turn" name="wheel" inputs="turn=valve_turn grip=hands_grip'
          ' left_x=hand_left.target_x left_y=hand_left.target_y left_z=hand_left.target_z'
          ' right_x=hand_right.target_x right_y=hand_right.target_y right_z=hand_right.target_z"/>')
        w('    <block type="or" name="hands_complying" inputs="in1=hands_comply in2=wheel.holding"/>')
        w('    <block type="constant" name="one" value="1"/>')
        w('    <block type="sum" name="hand_index" inputs="in1=hand_select in2=one"/>')  # router: 1, 2
        for c in ("x", "y", "z", "roll", "pitch", "yaw"):
            w(f'    <block type="input" name="hand_{c}" channel="hand.{c}"/>')
            w(f'    <block type="router" name="hand_{c}_to" outputs="2" inputs="in=hand_{c} index=hand_index"/>')
        for k, (sd, side) in enumerate((("l", "left"), ("r", "right"))):
            names = {c: f"hand_{c}_to.out{k + 1}" for c in ("x", "y", "z", "roll", "pitch", "yaw")}
            joints = " ".join(a for a in arms if a.endswith("_" + sd))
            g = GRASP[sd]
            w(f'    <block type="hand" name="hand_{side}" tip="hand_{sd}" point="{g[0]:.6g} {g[1]:.6g} {g[2]:.6g}"')
            w(f'           joints="{joints}" wrist_sensor="wrist_ft_{side}" admittance="{ADMITTANCE:g}"')
            orbit = " ".join(f"orbit_{c}=wheel.{side}_w{c}" for c in "xyz") + " " + \
                " ".join(f"centre_{c}=wheel.centre_{c}" for c in "xyz")
            w('           inputs="' + " ".join(f"{c}={n}" for c, n in names.items()) +
              f' frame=hands_frame comply=hands_complying {orbit}"/>')
    for j in legs + upper + arms:
        kind = JOINT_MOTOR[j[:-2] if j[-2:] in ("_l", "_r") else j]
        kp, kd = LEG_SERVO if j in legs else SERVO[kind]
        src = "zero"
        if not HOLD and j in legs:
            src = f"gait.{j}"
        elif not HOLD and j in arms:
            src = f"hand_{'left' if j.endswith('_l') else 'right'}.{j}"
        elif not HOLD and j == "neck_pitch":
            src = "look"
        en = "" if HOLD else " enable=gait.drives"
        w(f'    <block type="servo" name="{j}_servo" motor="{j}_motor" kp="{kp:g}" kd="{kd:g}" inputs="position={src}{en}"/>')
    if not HOLD:
        w("    <!-- The grippers held 5 mm inside their open stop: left free, walking shook the jaws onto the")
        w("         stop, where the repeater's loop and the stop trade impulses every step. Closed, each")
        w(f"         squeezes with {GRIP_SQUEEZE:g} of its stall torque in torque mode: {grip_force():.0f} N through the screw. -->")
        for sd, side in (("l", "left"), ("r", "right")):
            w(f'    <block type="gain" name="grip_{sd}_squeeze" k="{GRIP_SQUEEZE:g}" inputs="in=wheel.{side}_grip"/>')
            w(f'    <block type="servo" name="grip_{sd}_servo" motor="grip_{sd}_motor" kp="200" kd="2" '
              f'inputs="position=grip_open enable=gait.drives squeeze=grip_{sd}_squeeze"/>')
        w('    <block type="constant" name="grip_open" value="0.005"/>')
    w('    <block type="constant" name="zero" value="0"/>')
    if not HOLD:
        # The head camera tilts with the turn stick's y: up looks up (0.5 rad at full stick).
        w('    <block type="input" name="tilt" channel="head.tilt"/>')
        w('    <block type="gain" name="tilt_angle" k="-0.5" inputs="in=tilt"/>')
        w('    <block type="lag" name="look" time_constant="0.3" inputs="in=tilt_angle"/>')
        # The console's lamp: lit once the gait controller has found the robot fallen.
        w('    <block type="constant" name="fallen_level" value="2.5"/>')
        w('    <block type="comparator" name="fallen" op=">" inputs="a=gait.state b=fallen_level"/>')
    w("  </scheme>")
    w("</robot>")
    print("\n".join(out))


if __name__ == "__main__":
    main()
