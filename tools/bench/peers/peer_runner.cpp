#include "peer_runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace peers {

PeerResult runPeer(PeerEngine& engine, const BenchScene& scene, int runs) {
  if (!scene.variantRaises.empty()) {
    // Each raised copy measured on its own; together: the mean cost of a step over all of them
    // (total steps over the sum of each copy's median time) and the worst quality.
    PeerResult all;
    double seconds = 0.0;
    for (size_t k = 0; k < scene.variantRaises.size(); ++k) {
      const BenchScene variant = raisedScene(scene, scene.variantRaises[k]);
      PeerResult one = runPeer(engine, variant, runs);
      one.scene = scene.name;
      if (one.skipped) return one;
      seconds += variant.steps / one.stepsPerSecond;
      if (k == 0)
        all = one;
      else
        all.quality = worstOf(all.quality, one.quality);
    }
    all.stepsPerSecond = static_cast<double>(scene.variantRaises.size()) * scene.steps / seconds;
    return all;
  }
  PeerResult r;
  r.scene = scene.name;
  r.engine = engine.label();
  r.settings = engine.settings();
  if (!engine.supports(scene, r.why)) {
    r.skipped = true;
    return r;
  }
  {
    engine.build(scene);
    QualityMeter meter(scene);
    std::vector<BodyState> states;
    double warningAt = -1.0;
    engine.read(states);
    meter.record(0, states);
    for (int i = 1; i <= scene.steps; ++i) {
      engine.step();
      if (warningAt < 0 && engine.warned()) warningAt = i * scene.dt;
      engine.read(states);
      meter.record(i, states);
    }
    r.quality = meter.quality();
    r.quality.engineWarningAt = warningAt;
  }
  std::vector<double> rates;
  for (int k = 0; k < runs; ++k) {
    engine.build(scene);
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < scene.steps; ++i) engine.step();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rates.push_back(scene.steps / seconds);
  }
  std::sort(rates.begin(), rates.end());
  r.stepsPerSecond = rates.empty() ? 0.0 : rates[rates.size() / 2];
  r.runs = runs;
  return r;
}

std::string toLine(const PeerResult& r) {
  const Quality& q = r.quality;
  std::ostringstream s;
  s.precision(9);
  s << "ROW\t" << r.scene << '\t' << r.engine << '\t' << r.settings << '\t' << r.skipped << '\t'
    << (r.why.empty() ? "-" : r.why) << '\t' << r.stepsPerSecond << '\t' << r.runs << '\t'
    << q.peakAnchorGap << '\t' << q.peakAxisError << '\t' << q.peakLimitOvershoot << '\t'
    << q.finalEnergyRatio << '\t' << q.peakEnergyRatio << '\t' << q.topDrift << '\t' << q.diverged
    << '\t' << q.divergedAt << '\t' << q.engineWarningAt;
  return s.str();
}

bool fromLine(const std::string& line, PeerResult& r) {
  std::vector<std::string> f;
  std::stringstream s(line);
  for (std::string field; std::getline(s, field, '\t');) f.push_back(field);
  if (f.size() != 17 || f[0] != "ROW") return false;
  r.scene = f[1];
  r.engine = f[2];
  r.settings = f[3];
  r.skipped = f[4] == "1";
  r.why = f[5] == "-" ? "" : f[5];
  r.stepsPerSecond = std::stod(f[6]);
  r.runs = std::stoi(f[7]);
  Quality& q = r.quality;
  q.peakAnchorGap = std::stod(f[8]);
  q.peakAxisError = std::stod(f[9]);
  q.peakLimitOvershoot = std::stod(f[10]);
  q.finalEnergyRatio = std::stod(f[11]);
  q.peakEnergyRatio = std::stod(f[12]);
  q.topDrift = std::stod(f[13]);
  q.diverged = f[14] == "1";
  q.divergedAt = std::stod(f[15]);
  q.engineWarningAt = std::stod(f[16]);
  return true;
}

namespace {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string rate(double stepsPerSecond) {
  return stepsPerSecond >= 1e4 ? fixed(stepsPerSecond / 1e3, 1) + "k"
                               : fixed(stepsPerSecond / 1e3, 2) + "k";
}

std::string length(double metres) {
  if (metres < 1e-3) return fixed(metres * 1e6, 0) + " um";
  if (metres < 1e-2) return fixed(metres * 1e3, 2) + " mm";
  if (metres < 1.0) return fixed(metres * 1e2, 1) + " cm";
  return fixed(metres, 2) + " m";
}

std::string notes(const Quality& q) {
  std::string n;
  if (q.engineWarningAt >= 0)
    n = "unstable at " + fixed(q.engineWarningAt, 2) + " s (engine warning, state reset)";
  if (q.diverged)
    n += (n.empty() ? "" : "; ") + std::string("diverged at ") + fixed(q.divergedAt, 2) + " s";
  return n;
}

}  // namespace

bool sleepingVariant(const std::string& engine) {
  return engine == "Impetus" || engine.find("auto-disable") != std::string::npos ||
         engine.find("deactivation") != std::string::npos;
}

std::string markdownTable(const std::vector<PeerResult>& results) {
  // Engines that sleep are compared with Impetus sleeping (its default), the others with Impetus
  // not sleeping: the solver against the solver.
  std::map<std::pair<std::string, bool>, double> impetusRate;
  for (const PeerResult& r : results)
    if (!r.skipped && r.engine.rfind("Impetus", 0) == 0)
      impetusRate[{r.scene, sleepingVariant(r.engine)}] = r.stepsPerSecond;
  std::ostringstream s;
  s << "| scene | engine | steps/s | Impetus speed / this (sleeping alike) | peak anchor gap | "
       "peak hinge-axis "
       "error | limit overshoot | E(10 s)/E0 | peak E/E0 | top box drift | notes |\n"
    << "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const PeerResult& r : results) {
    s << "| " << r.scene << " | " << r.engine << " | ";
    if (r.skipped) {
      s << "- | - | - | - | - | - | - | - | " << r.why << " |\n";
      continue;
    }
    const Quality& q = r.quality;
    const auto it = impetusRate.find({r.scene, sleepingVariant(r.engine)});
    s << rate(r.stepsPerSecond) << " | "
      << (it != impetusRate.end() ? fixed(it->second / r.stepsPerSecond, 2) + "x" : "-") << " | "
      << length(q.peakAnchorGap) << " | " << fixed(q.peakAxisError, 3) << " rad | "
      << fixed(std::max(q.peakLimitOvershoot, 0.0), 3) << " rad | " << fixed(q.finalEnergyRatio, 3)
      << " | " << fixed(q.peakEnergyRatio, 3) << " | "
      << (r.scene.rfind("stack", 0) == 0
              ? length(q.topDrift) + (q.topDrift < 0.01 ? " (stands)" : " (creeps)")
              : "-")
      << " | " << notes(q) << " |\n";
  }
  return s.str();
}

PeerOptions parseOptions(int argc, char** argv) {
  PeerOptions o;
  const auto list = [](const std::string& text) {
    std::vector<std::string> items;
    std::stringstream s(text);
    for (std::string item; std::getline(s, item, ',');)
      if (!item.empty()) items.push_back(item);
    return items;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool hasValue = i + 1 < argc;
    if (a == "--runs" && hasValue) {
      o.runs = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--scenes" && hasValue) {
      o.scenes = list(argv[++i]);
      for (const std::string& name : o.scenes) sceneByName(name);  // throws on unknown names
    } else if (a == "--engines" && hasValue) {
      o.engines = list(argv[++i]);
    } else if (a == "--rows") {
      o.rowsOnly = true;
    } else {
      throw std::invalid_argument(
          "usage: peer_bench [--runs N] [--scenes chain30,stack10,ragdoll,ragdoll-drops,chain100] "
          "[--engines Impetus,MuJoCo,ODE,Bullet]  (unknown argument '" +
          a + "')");
    }
  }
  return o;
}

bool engineSelected(const PeerOptions& o, const std::string& label) {
  if (o.engines.empty()) return true;
  for (const std::string& e : o.engines)
    if (label.find(e) != std::string::npos) return true;
  return false;
}

std::vector<PeerResult> runAll(const std::vector<PeerFactory>& factories, const PeerOptions& o) {
  std::vector<PeerResult> results;
  for (const std::string& name : o.scenes) {
    const BenchScene scene = sceneByName(name);
    for (PeerFactory make : factories) {
      auto engine = make();
      if (!engineSelected(o, engine->label())) continue;
      results.push_back(runPeer(*engine, scene, o.runs));
      if (o.rowsOnly) {
        std::cout << toLine(results.back()) << std::endl;
      } else {
        std::cerr << "  " << name << " / " << engine->label() << ": "
                  << results.back().stepsPerSecond << " steps/s" << std::endl;
      }
    }
  }
  return results;
}

}  // namespace peers
