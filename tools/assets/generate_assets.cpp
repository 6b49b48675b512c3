// impetus-assets: writes the meshes and textures under assets/ that the shipped scenes draw
// (scenes/README.md, <visual>). Nothing can be downloaded where Impetus is built, so the assets are
// authored here, as code: every number is in this file, the output is plain text (OBJ/MTL) and
// uncompressed PNG, and a run writes the same bytes on any machine (`assets.regenerate` checks
// the committed files against a fresh run).
//
//   impetus-assets OUTPUT_DIR
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr double kPi = std::numbers::pi;

struct V3 {
  double x = 0, y = 0, z = 0;
};
V3 operator+(V3 a, V3 b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
V3 operator*(double s, V3 a) {
  return {s * a.x, s * a.y, s * a.z};
}

/// An OBJ mesh being built: positions, normals and texture coordinates, faces by index triples.
class Mesh {
 public:
  int vertex(V3 p, V3 n, double u = 0.0, double v = 0.0) {
    points_.push_back(p);
    normals_.push_back(n);
    uvs_.push_back({u, v, 0});
    return static_cast<int>(points_.size());  // OBJ counts from 1
  }
  void triangle(int a, int b, int c) { faces_.push_back({a, b, c}); }
  void quad(int a, int b, int c, int d) {
    triangle(a, b, c);
    triangle(a, c, d);
  }
  /// A quad or triangle of new vertices sharing normal `n` (made in order: the file is the same
  /// whichever order a compiler evaluates arguments in).
  void quadOf(V3 a, V3 b, V3 c, V3 d, V3 n) {
    const int ia = vertex(a, n), ib = vertex(b, n), ic = vertex(c, n), id = vertex(d, n);
    quad(ia, ib, ic, id);
  }
  void triangleOf(V3 a, V3 b, V3 c, V3 n) {
    const int ia = vertex(a, n), ib = vertex(b, n), ic = vertex(c, n);
    triangle(ia, ib, ic);
  }
  void material(const std::string& name) { groups_.push_back({faces_.size(), name}); }
  /// A cylinder along y from y0 to y1, radius r, n sides, with caps; `radiusAt` shapes the rim
  /// (a sprocket's teeth) as a function of the angle.
  void wheel(double y0, double y1, int n, const std::function<double(double)>& radiusAt,
             double hubRadius, double hubDepth, int bolts) {
    // Rim.
    for (int k = 0; k < n; ++k) {
      const double a0 = 2 * kPi * k / n, a1 = 2 * kPi * (k + 1) / n, am = 0.5 * (a0 + a1);
      const double r0 = radiusAt(a0), r1 = radiusAt(a1);
      const V3 nrm{std::cos(am), 0, std::sin(am)};
      quadOf({r0 * std::cos(a0), y1, r0 * std::sin(a0)}, {r1 * std::cos(a1), y1, r1 * std::sin(a1)},
             {r1 * std::cos(a1), y0, r1 * std::sin(a1)}, {r0 * std::cos(a0), y0, r0 * std::sin(a0)},
             nrm);
    }
    // Faces: a disc at each end, with a raised hub and bolt heads on the outer (+y) side.
    for (const double y : {y0, y1}) {
      const double side = y == y1 ? 1.0 : -1.0;
      const V3 nrm{0, side, 0};
      const int centre = vertex({0, y, 0}, nrm);
      for (int k = 0; k < n; ++k) {
        const double a0 = 2 * kPi * k / n, a1 = 2 * kPi * (k + 1) / n;
        const int p0 = vertex({radiusAt(a0) * std::cos(a0), y, radiusAt(a0) * std::sin(a0)}, nrm);
        const int p1 = vertex({radiusAt(a1) * std::cos(a1), y, radiusAt(a1) * std::sin(a1)}, nrm);
        if (side > 0)
          triangle(centre, p1, p0);
        else
          triangle(centre, p0, p1);
      }
    }
    material("hub");
    cylinderAlongY(V3{0, y1, 0}, hubRadius, hubDepth, 16);
    for (int b = 0; b < bolts; ++b) {
      const double a = 2 * kPi * b / bolts;
      const double rb = 0.6 * hubRadius;
      cylinderAlongY(V3{rb * std::cos(a), y1 + hubDepth, rb * std::sin(a)}, 0.12 * hubRadius,
                     0.5 * hubDepth, 6);
    }
  }
  /// A closed cylinder from `base` along +y, radius r, depth d.
  void cylinderAlongY(V3 base, double r, double d, int n) {
    const V3 top = base + V3{0, d, 0};
    const int c = vertex(top, {0, 1, 0});
    for (int k = 0; k < n; ++k) {
      const double a0 = 2 * kPi * k / n, a1 = 2 * kPi * (k + 1) / n, am = 0.5 * (a0 + a1);
      const V3 e0{r * std::cos(a0), 0, r * std::sin(a0)}, e1{r * std::cos(a1), 0, r * std::sin(a1)};
      const V3 nrm{std::cos(am), 0, std::sin(am)};
      quadOf(top + e0, top + e1, base + e1, base + e0, nrm);
      const int t1 = vertex(top + e1, {0, 1, 0}), t0 = vertex(top + e0, {0, 1, 0});
      triangle(c, t1, t0);
    }
  }
  /// A box centred at `c` with full sizes `s`, its vertical edges and top edges chamfered by `b`.
  void chamferedBox(V3 c, V3 s, double b) {
    const double hx = 0.5 * s.x, hy = 0.5 * s.y, hz = 0.5 * s.z;
    // Rings of 8 points (an octagon in plan) at the bottom, below the top chamfer, and the top.
    const auto ring = [&](double z, double inset) {
      const double ax = hx - inset, ay = hy - inset, bx = hx - b - inset, by = hy - b - inset;
      return std::vector<V3>{{ax, -by, z}, {ax, by, z},   {bx, ay, z},   {-bx, ay, z},
                             {-ax, by, z}, {-ax, -by, z}, {-bx, -ay, z}, {bx, -ay, z}};
    };
    const std::vector<std::vector<V3>> rings = {ring(-hz, 0), ring(hz - b, 0), ring(hz, b)};
    for (size_t r = 0; r + 1 < rings.size(); ++r)
      for (int k = 0; k < 8; ++k) {
        const V3 a = rings[r][k], bb = rings[r][(k + 1) % 8], cc = rings[r + 1][(k + 1) % 8],
                 d = rings[r + 1][k];
        V3 mid = 0.5 * (a + bb);
        const double len = std::hypot(mid.x, mid.y);
        V3 n{mid.x / len, mid.y / len, r == 0 ? 0.0 : 0.7};
        const double nl = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
        n = (1.0 / nl) * n;
        quadOf(c + a, c + bb, c + cc, c + d, n);
      }
    for (const int top : {0, 2}) {  // caps
      const V3 n{0, 0, top ? 1.0 : -1.0};
      const int centre = vertex(c + V3{0, 0, top ? hz : -hz}, n);
      for (int k = 0; k < 8; ++k) {
        const int p0 = vertex(c + rings[top][k], n), p1 = vertex(c + rings[top][(k + 1) % 8], n);
        if (top)
          triangle(centre, p0, p1);
        else
          triangle(centre, p1, p0);
      }
    }
  }

  void write(const std::string& path, const std::string& mtl) const {
    std::ofstream out(path, std::ios::binary);
    out << "# Impetus asset, written by tools/assets/generate_assets.cpp\n";
    if (!mtl.empty()) out << "mtllib " << mtl << "\n";
    char line[160];
    for (const V3& p : points_) {
      std::snprintf(line, sizeof line, "v %.5f %.5f %.5f\n", p.x, p.y, p.z);
      out << line;
    }
    for (const V3& n : normals_) {
      std::snprintf(line, sizeof line, "vn %.4f %.4f %.4f\n", n.x, n.y, n.z);
      out << line;
    }
    for (const V3& t : uvs_) {
      std::snprintf(line, sizeof line, "vt %.5f %.5f\n", t.x, t.y);
      out << line;
    }
    size_t group = 0;
    for (size_t f = 0; f < faces_.size(); ++f) {
      while (group < groups_.size() && groups_[group].first == f)
        out << "usemtl " << groups_[group++].second << "\n";
      const auto& [a, b, c] = faces_[f];
      std::snprintf(line, sizeof line, "f %d/%d/%d %d/%d/%d %d/%d/%d\n", a, a, a, b, b, b, c, c, c);
      out << line;
    }
    if (!out) throw std::runtime_error("cannot write " + path);
  }

 private:
  struct Face {
    int a, b, c;
  };
  std::vector<V3> points_, normals_, uvs_;
  std::vector<Face> faces_;
  std::vector<std::pair<size_t, std::string>> groups_;
};

// ---- PNG, uncompressed (stored deflate blocks): the same bytes from any zlib or none ----

std::uint32_t crc32(const std::uint8_t* data, size_t n, std::uint32_t crc = 0) {
  crc = ~crc;
  for (size_t i = 0; i < n; ++i) {
    crc ^= data[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

void put32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<std::uint8_t>(v >> s));
}

void chunk(std::vector<std::uint8_t>& png, const char* type,
           const std::vector<std::uint8_t>& data) {
  put32(png, static_cast<std::uint32_t>(data.size()));
  std::vector<std::uint8_t> body(type, type + 4);
  body.insert(body.end(), data.begin(), data.end());
  png.insert(png.end(), body.begin(), body.end());
  put32(png, crc32(body.data(), body.size()));
}

/// An RGB image, row by row from the top.
struct Image {
  int width, height;
  std::vector<std::uint8_t> rgb;
  Image(int w, int h) : width(w), height(h), rgb(static_cast<size_t>(w * h * 3)) {}
  void set(int x, int y, double r, double g, double b) {
    const auto c = [](double v) {
      return static_cast<std::uint8_t>(std::lround(std::fmin(std::fmax(v, 0.0), 1.0) * 255.0));
    };
    std::uint8_t* p = &rgb[static_cast<size_t>((y * width + x) * 3)];
    p[0] = c(r);
    p[1] = c(g);
    p[2] = c(b);
  }
  void write(const std::string& path) const {
    std::vector<std::uint8_t> raw;  // filter byte 0 per row
    for (int y = 0; y < height; ++y) {
      raw.push_back(0);
      raw.insert(raw.end(), rgb.begin() + y * width * 3, rgb.begin() + (y + 1) * width * 3);
    }
    std::vector<std::uint8_t> z = {0x78, 0x01};
    for (size_t at = 0; at < raw.size();) {
      const size_t n = std::min<size_t>(65535, raw.size() - at);
      z.push_back(at + n == raw.size() ? 1 : 0);
      z.push_back(static_cast<std::uint8_t>(n));
      z.push_back(static_cast<std::uint8_t>(n >> 8));
      z.push_back(static_cast<std::uint8_t>(~n));
      z.push_back(static_cast<std::uint8_t>(~n >> 8));
      z.insert(z.end(), raw.begin() + static_cast<long>(at),
               raw.begin() + static_cast<long>(at + n));
      at += n;
    }
    std::uint32_t a = 1, b = 0;  // Adler-32
    for (std::uint8_t v : raw) {
      a = (a + v) % 65521;
      b = (b + a) % 65521;
    }
    put32(z, (b << 16) | a);
    std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    std::vector<std::uint8_t> header;
    put32(header, static_cast<std::uint32_t>(width));
    put32(header, static_cast<std::uint32_t>(height));
    header.insert(header.end(), {8, 2, 0, 0, 0});  // 8-bit RGB
    chunk(png, "IHDR", header);
    chunk(png, "IDAT", z);
    chunk(png, "IEND", {});
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(png.data()), static_cast<long>(png.size()));
    if (!out) throw std::runtime_error("cannot write " + path);
  }
};

/// Value noise in [0, 1), the same on every machine (integer hash, no library generator).
double noise(int x, int y, std::uint32_t seed) {
  std::uint32_t h = static_cast<std::uint32_t>(x) * 374761393u +
                    static_cast<std::uint32_t>(y) * 668265263u + seed * 2246822519u;
  h = (h ^ (h >> 13)) * 1274126177u;
  return double((h ^ (h >> 16)) & 0xFFFFu) / 65536.0;
}

/// Smooth noise over a `period`-pixel lattice that tiles over `size` pixels.
double smoothNoise(int x, int y, int period, int size, std::uint32_t seed) {
  const int cells = size / period;
  const double fx = double(x) / period, fy = double(y) / period;
  const int x0 = int(fx), y0 = int(fy);
  const double tx = fx - x0, ty = fy - y0;
  const auto at = [&](int i, int j) { return noise(i % cells, j % cells, seed); };
  const double sx = tx * tx * (3 - 2 * tx), sy = ty * ty * (3 - 2 * ty);
  const double top = at(x0, y0) * (1 - sx) + at(x0 + 1, y0) * sx;
  const double bottom = at(x0, y0 + 1) * (1 - sx) + at(x0 + 1, y0 + 1) * sx;
  return top * (1 - sy) + bottom * sy;
}

// ---- The MF-4's running gear (dimensions from scenes/robots/mf4.xml) ----

constexpr double kTrackLength = 0.86;  // the track geom's box: 0.86 x 0.1 x 0.18 m
constexpr double kTrackWidth = 0.1;
constexpr double kSprocketRadius = 0.09;  // the belt's outer radius round the ends (m)
constexpr double kBeltThickness = 0.016;
constexpr int kTreads = 36;  // grousers round the belt: one texture repeat each

/// The belt: a band round two end circles, u along it (one tread a unit), v across. Starts at the
/// front of the bottom run and runs backwards along it, so a forward drive moves the treads
/// towards +u. Returns the belt's length at mid-thickness (m).
double writeBelt(const std::string& dir) {
  Mesh m;
  m.material("rubber");
  const double span = kTrackLength - 2 * kSprocketRadius;  // between the end circles' centres
  const double rOut = kSprocketRadius, rIn = kSprocketRadius - kBeltThickness;
  const double rMid = 0.5 * (rOut + rIn);
  const double length = 2 * span + 2 * kPi * rMid;
  // The path: (x, z) and outward normal at arc length s (of the mid line), bottom run first.
  const auto at = [&](double s, double r, V3& p, V3& n) {
    const double half = 0.5 * span;
    if (s < span) {  // bottom, front to back
      p = {half - s, 0, -r};
      n = {0, 0, -1};
      return;
    }
    s -= span;
    if (s < kPi * rMid) {  // round the rear, bottom to top
      const double a = -kPi / 2 - s / rMid;
      n = {std::cos(a), 0, std::sin(a)};
      p = {-half + r * n.x, 0, r * n.z};
      return;
    }
    s -= kPi * rMid;
    if (s < span) {  // top, back to front
      p = {-half + s, 0, r};
      n = {0, 0, 1};
      return;
    }
    s -= span;  // round the front, top to bottom
    const double a = kPi / 2 - s / rMid;
    n = {std::cos(a), 0, std::sin(a)};
    p = {half + r * n.x, 0, r * n.z};
  };
  const int samples = 4 * kTreads;
  const double hw = 0.5 * kTrackWidth;
  std::vector<int> outerL, outerR, innerL, innerR, sideLo, sideLi, sideRo, sideRi;
  for (int i = 0; i <= samples; ++i) {
    const double s = length * i / samples, u = double(kTreads) * i / samples;
    V3 po, pi, n;
    at(std::fmod(s, length), rOut, po, n);
    at(std::fmod(s, length), rIn, pi, n);
    outerL.push_back(m.vertex(po + V3{0, hw, 0}, n, u, 1));
    outerR.push_back(m.vertex(po + V3{0, -hw, 0}, n, u, 0));
    const V3 ni = -1.0 * n;
    innerL.push_back(m.vertex(pi + V3{0, hw, 0}, ni, u, 1));
    innerR.push_back(m.vertex(pi + V3{0, -hw, 0}, ni, u, 0));
    sideLo.push_back(m.vertex(po + V3{0, hw, 0}, {0, 1, 0}, u, 0.95));
    sideLi.push_back(m.vertex(pi + V3{0, hw, 0}, {0, 1, 0}, u, 0.95));
    sideRo.push_back(m.vertex(po + V3{0, -hw, 0}, {0, -1, 0}, u, 0.95));
    sideRi.push_back(m.vertex(pi + V3{0, -hw, 0}, {0, -1, 0}, u, 0.95));
  }
  for (int i = 0; i < samples; ++i) {
    m.quad(outerR[i], outerR[i + 1], outerL[i + 1], outerL[i]);
    m.quad(innerL[i], innerL[i + 1], innerR[i + 1], innerR[i]);
    m.quad(sideLo[i], sideLo[i + 1], sideLi[i + 1], sideLi[i]);
    m.quad(sideRi[i], sideRi[i + 1], sideRo[i + 1], sideRo[i]);
  }
  m.write(dir + "/track_belt.obj", "mf4.mtl");
  return length;
}

void writeWheels(const std::string& dir) {
  const double width = 0.07;  // inside the 0.1 m belt
  Mesh road;
  road.material("wheel");
  road.wheel(
      -0.5 * width, 0.5 * width, 24, [](double) { return 0.05; }, 0.03, 0.008, 5);
  road.write(dir + "/road_wheel.obj", "mf4.mtl");
  const double rIn = kSprocketRadius - kBeltThickness;
  Mesh sprocket;
  sprocket.material("wheel");
  sprocket.wheel(
      -0.5 * width, 0.5 * width, 60,
      [&](double a) {  // 12 teeth into the belt's inner face
        const double phase = std::fmod(a * 12 / (2 * kPi), 1.0);
        return phase < 0.35 ? rIn - 0.001 : rIn - 0.012;
      },
      0.035, 0.01, 6);
  sprocket.write(dir + "/sprocket.obj", "mf4.mtl");
  Mesh idler;
  idler.material("wheel");
  idler.wheel(
      -0.5 * width, 0.5 * width, 32, [&](double) { return rIn - 0.002; }, 0.03, 0.008, 4);
  idler.write(dir + "/idler.obj", "mf4.mtl");
}

void writeHull(const std::string& dir) {
  // The hull box (0.7 x 0.36 x 0.16 at z +0.03 in the hull's frame): a chamfered shell, a deck
  // plate, the battery box at the rear and a sensor bar at the front.
  Mesh m;
  m.material("paint");
  m.chamferedBox({0, 0, 0.03}, {0.7, 0.36, 0.16}, 0.03);
  m.material("dark");
  m.chamferedBox({-0.2, 0, 0.125}, {0.22, 0.26, 0.05}, 0.012);
  m.chamferedBox({0.3, 0, 0.12}, {0.06, 0.3, 0.04}, 0.01);
  m.material("steel");
  m.chamferedBox({0.05, 0, 0.113}, {0.32, 0.3, 0.006}, 0.004);
  m.write(dir + "/hull.obj", "mf4.mtl");
}

void writeMaterials(const std::string& dir) {
  std::ofstream out(dir + "/mf4.mtl", std::ios::binary);
  out << "# Impetus asset, written by tools/assets/generate_assets.cpp\n"
         "newmtl paint\nKa 0.35 0.33 0.12\nKd 0.72 0.66 0.22\nKs 0.3 0.3 0.3\nNs 40\n\n"
         "newmtl dark\nKa 0.08 0.08 0.09\nKd 0.18 0.18 0.2\nKs 0.2 0.2 0.2\nNs 20\n\n"
         "newmtl steel\nKa 0.3 0.3 0.3\nKd 0.55 0.56 0.58\nKs 0.6 0.6 0.6\nNs 60\n\n"
         "newmtl wheel\nKa 0.1 0.1 0.1\nKd 0.25 0.25 0.26\nKs 0.3 0.3 0.3\nNs 30\n\n"
         "newmtl hub\nKa 0.3 0.28 0.1\nKd 0.7 0.62 0.2\nKs 0.4 0.4 0.4\nNs 50\n\n"
         "newmtl rubber\nKa 0.2 0.2 0.2\nKd 1 1 1\nKs 0.1 0.1 0.1\nNs 10\nmap_Kd tread.png\n";
  if (!out) throw std::runtime_error("cannot write " + dir + "/mf4.mtl");
}

/// One grouser across the belt per texture repeat: u along the belt, v across it.
void writeTread(const std::string& dir) {
  Image img(64, 64);
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const double u = (x + 0.5) / img.width;
      const double bar = u > 0.15 && u < 0.45 ? 1.0 : 0.0;  // the raised grouser
      const double edge = std::fabs(u - 0.15) < 0.03 || std::fabs(u - 0.45) < 0.03 ? 1.0 : 0.0;
      const double grit = 0.04 * noise(x, y, 7);
      const double g = 0.12 + 0.1 * bar + 0.08 * edge + grit;
      img.set(x, y, g, g, g * 1.05);
    }
  img.write(dir + "/tread.png");
}

// ---- Training grounds ----

/// Concrete, tiling every 256 pixels (2 m in the yard's texture coordinates).
void writeConcrete(const std::string& dir) {
  Image img(256, 256);
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const double n = 0.5 * smoothNoise(x, y, 32, 256, 1) + 0.3 * smoothNoise(x, y, 8, 256, 2) +
                       0.2 * noise(x, y, 3);
      const bool joint = x < 2 || y < 2;  // the slab's expansion joints
      const double g = joint ? 0.32 : 0.5 + 0.16 * (n - 0.5);
      img.set(x, y, g, g * 0.98, g * 0.94);
    }
  img.write(dir + "/concrete.png");
}

/// Brick courses for walls: 4 x 8 bricks a repeat.
void writeBrick(const std::string& dir) {
  Image img(128, 128);
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const int course = y / 16;
      const int shifted = x + (course % 2) * 16;
      const bool mortar = y % 16 < 2 || shifted % 32 < 2;
      const double n = 0.12 * noise(shifted / 32 + 17 * course, course, 5) + 0.05 * noise(x, y, 6);
      if (mortar)
        img.set(x, y, 0.62, 0.6, 0.56);
      else
        img.set(x, y, 0.5 + n, 0.24 + 0.5 * n, 0.18 + 0.4 * n);
    }
  img.write(dir + "/brick.png");
}

/// An indoor plant room's floor: 2 x 2 grey vinyl tiles (0.5 m each in the room's texture
/// coordinates: one repeat a metre), a faint mottle in each.
void writeFloorTiles(const std::string& dir) {
  Image img(128, 128);
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const bool seam = x % 64 < 1 || y % 64 < 1;
      const int tile = (x / 64) + 2 * (y / 64);
      const double n = 0.05 * smoothNoise(x, y, 8, 128, 11) + 0.03 * noise(x, y, 12);
      const double g = seam ? 0.34 : 0.58 + 0.03 * (tile % 2) + n;
      img.set(x, y, g, g * 1.0, g * 1.03);
    }
  img.write(dir + "/floor_tiles.png");
}

/// Painted block walls: a 1 m repeat of 2 x 4 blocks (0.5 x 0.25 m, courses offset by half a
/// block) under cream paint.
void writePaintedBlock(const std::string& dir) {
  Image img(128, 128);
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const int course = y / 32;
      const int shifted = x + (course % 2) * 32;
      const bool joint = y % 32 < 1 || shifted % 64 < 1;
      const double n = 0.03 * smoothNoise(x, y, 16, 128, 13) + 0.02 * noise(x, y, 14);
      if (joint)
        img.set(x, y, 0.72, 0.7, 0.62);
      else
        img.set(x, y, 0.86 + n, 0.83 + n, 0.72 + n);
    }
  img.write(dir + "/painted_block.png");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: impetus-assets OUTPUT_DIR\n");
    return 1;
  }
  try {
    const std::string root = argv[1];
    const std::string mf4 = root + "/mf4", grounds = root + "/grounds";
    std::filesystem::create_directories(mf4);
    std::filesystem::create_directories(grounds);
    const double belt = writeBelt(mf4);
    writeWheels(mf4);
    writeHull(mf4);
    writeMaterials(mf4);
    writeTread(mf4);
    writeConcrete(grounds);
    writeBrick(grounds);
    writeFloorTiles(grounds);
    writePaintedBlock(grounds);
    std::printf("impetus-assets: wrote %s (track belt %.6f m, tread pitch %.6f m)\n", root.c_str(),
                belt, belt / kTreads);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "impetus-assets: %s\n", e.what());
    return 1;
  }
  return 0;
}
