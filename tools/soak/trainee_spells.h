#pragma once
// When a tired trainee acts: spells of slamming the sticks between their stops, of mashing the
// buttons and of doing nothing at all, each of random length, and within a spell the moments the
// trainee gives new input. impetus-soak turns each move into console channel values,
// impetus-gui-soak into mouse and key events on the window.
#include <cstdint>
#include <random>

namespace impetus::soak {

class TraineeSpells {
 public:
  enum class Spell { Slam, Mash, Idle };

  explicit TraineeSpells(std::uint64_t seed) : rng_(seed) {}

  /// Whether the trainee gives new input at time t (s): call moved(t) once it is given.
  bool due(double t) {
    if (t >= spellEnd_) startSpell(t);
    return t >= nextMove_;
  }
  /// The next move comes 0.05-0.5 s later while mashing, 0.3-3 s otherwise.
  void moved(double t) {
    nextMove_ = t + (spell_ == Spell::Mash ? uniform(0.05, 0.5) : uniform(0.3, 3.0));
  }
  Spell spell() const { return spell_; }
  bool idle() const { return spell_ == Spell::Idle; }

  double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng_); }
  /// One of a, ..., b.
  int pick(int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng_); }
  /// A stick slammed to one of its stops along an axis: -1, -1/2, 0, 1/2 or 1.
  double stickStop() {
    static constexpr double kStops[] = {-1.0, -0.5, 0.0, 0.5, 1.0};
    return kStops[pick(0, 4)];
  }

 private:
  /// Half the spells slam, a fifth mash, the rest idle; idle 5-60 s, the others 5-120 s.
  void startSpell(double t) {
    const double r = uniform(0.0, 1.0);
    spell_ = r < 0.5 ? Spell::Slam : r < 0.7 ? Spell::Mash : Spell::Idle;
    spellEnd_ = t + (spell_ == Spell::Idle ? uniform(5.0, 60.0) : uniform(5.0, 120.0));
    nextMove_ = t;
  }

  std::mt19937_64 rng_;
  Spell spell_ = Spell::Slam;
  double spellEnd_ = -1.0, nextMove_ = 0.0;
};

}  // namespace impetus::soak
