#include "exercise_parser.h"

#include <functional>
#include <map>

namespace impetus {
namespace {

using tinyxml2::XMLElement;

ExerciseRegion readRegion(const XmlReader& r, const XMLElement* e) {
  ExerciseRegion region;
  const bool box = e->Attribute("size"), sphere = e->Attribute("radius");
  if (box == sphere) r.fail(e, "a region is a box (centre, size) or a sphere (centre, radius)");
  region.centre = r.vec3(e, "centre", Vec3::Zero());
  if (!e->Attribute("centre")) r.fail(e, "a region needs 'centre'");
  if (box) {
    region.shape = ExerciseRegion::Shape::Box;
    region.size = r.vec3(e, "size", Vec3::Zero());
    if (!(region.size.array() > 0.0).all()) r.fail(e, "a region's size must be 3 positive numbers");
  } else {
    region.shape = ExerciseRegion::Shape::Sphere;
    region.radius = r.number(e, "radius");
    if (!(region.radius > 0.0)) r.fail(e, "a region's radius must be positive");
  }
  return region;
}

double nonNegative(const XmlReader& r, const XMLElement* e, const char* name, double fallback) {
  const double v = r.number(e, name, fallback);
  if (!(v >= 0.0)) r.fail(e, std::string("'") + name + "' must not be negative");
  return v;
}

ExerciseObjective readObjective(const XmlReader& r, const XMLElement* e) {
  using Kind = ExerciseObjective::Kind;
  static const std::map<std::string, Kind> kinds = {{"region", Kind::Region},
                                                    {"hold", Kind::Hold},
                                                    {"cross", Kind::Cross},
                                                    {"rest", Kind::Rest},
                                                    {"lift", Kind::Lift}};
  ExerciseObjective o;
  o.line = e->GetLineNum();
  o.name = r.required(e, "name");
  o.text = XmlReader::text(e, "text").value_or(o.name);
  const std::string kind = r.required(e, "kind");
  const auto k = kinds.find(kind);
  if (k == kinds.end())
    r.fail(e, "unknown objective kind '" + kind + "' (region, hold, cross, rest, lift)");
  o.kind = k->second;
  o.weight = r.number(e, "weight", 1.0);
  o.duration = nonNegative(r, e, "for", 0.0);
  switch (o.kind) {
    case Kind::Region:
    case Kind::Rest:
      r.allow(e, {"name", "kind", "text", "weight", "for", "after", "body", "centre", "size",
                  "radius"});
      o.body = r.required(e, "body");
      o.region = readRegion(r, e);
      if (o.kind == Kind::Rest && o.duration == 0.0) o.duration = 1.0;
      break;
    case Kind::Hold:
      r.allow(e, {"name", "kind", "text", "weight", "for", "after", "probe", "min", "max"});
      o.probe = r.required(e, "probe");
      o.min = r.number(e, "min");
      o.max = r.number(e, "max");
      if (!(o.min <= o.max)) r.fail(e, "'min' must not exceed 'max'");
      break;
    case Kind::Cross:
      r.allow(e, {"name", "kind", "text", "weight", "after", "probe", "above", "below"});
      o.probe = r.required(e, "probe");
      if (bool(e->Attribute("above")) == bool(e->Attribute("below")))
        r.fail(e, "a 'cross' objective needs one of 'above' or 'below'");
      if (e->Attribute("above")) o.min = r.number(e, "above");
      if (e->Attribute("below")) o.max = r.number(e, "below");
      break;
    case Kind::Lift:
      r.allow(e, {"name", "kind", "text", "weight", "for", "after", "body", "height"});
      o.body = r.required(e, "body");
      o.height = nonNegative(r, e, "height", 0.05);
      break;
  }
  return o;
}

ExerciseLimit readLimit(const XmlReader& r, const XMLElement* e) {
  ExerciseLimit l;
  l.line = e->GetLineNum();
  l.name = r.required(e, "name");
  l.text = XmlReader::text(e, "text").value_or(l.name);
  const std::string kind = r.required(e, "kind");
  if (kind == "probe") {
    r.allow(e, {"name", "kind", "text", "probe", "min", "max", "warn", "penalty", "per", "stop"});
    l.kind = ExerciseLimit::Kind::Probe;
    l.probe = r.required(e, "probe");
    if (!e->Attribute("min") && !e->Attribute("max"))
      r.fail(e, "a 'probe' limit needs 'min', 'max' or both");
    l.min = r.number(e, "min", -1e300);
    l.max = r.number(e, "max", 1e300);
    if (!(l.min <= l.max)) r.fail(e, "'min' must not exceed 'max'");
    l.warn = nonNegative(r, e, "warn", 0.0);
  } else if (kind == "contact") {
    r.allow(e, {"name", "kind", "text", "body", "with", "penalty", "per", "stop"});
    l.kind = ExerciseLimit::Kind::Contact;
    l.body = r.required(e, "body");
    if (const auto with = XmlReader::text(e, "with")) {
      std::istringstream in(*with);
      for (std::string name; in >> name;) l.with.push_back(name);
    }
  } else {
    r.fail(e, "unknown limit kind '" + kind + "' (probe, contact)");
  }
  l.penalty = nonNegative(r, e, "penalty", 0.0);
  const std::string per = XmlReader::text(e, "per").value_or("event");
  if (per != "event" && per != "second") r.fail(e, "'per' must be 'event' or 'second'");
  l.perSecond = per == "second";
  l.stop = r.flag(e, "stop", false);
  return l;
}

}  // namespace

ExerciseDesc readExercise(const XmlReader& r, const XMLElement* e) {
  r.allow(e, {"name", "title", "time_limit", "pass", "order"});
  ExerciseDesc d;
  d.name = r.required(e, "name");
  d.title = XmlReader::text(e, "title").value_or(d.name);
  d.timeLimit = nonNegative(r, e, "time_limit", 0.0);
  d.passMark = r.number(e, "pass", 0.0);
  const std::string order = XmlReader::text(e, "order").value_or("any");
  if (order != "any" && order != "sequence") r.fail(e, "'order' must be 'any' or 'sequence'");
  std::vector<const XMLElement*> objectiveElements, hintElements;
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    const std::string name = c->Name();
    if (name == "objective") {
      d.objectives.push_back(readObjective(r, c));
      objectiveElements.push_back(c);
    } else if (name == "limit") {
      d.limits.push_back(readLimit(r, c));
    } else if (name == "hint") {
      hintElements.push_back(c);
    } else {
      r.fail(c, "unknown element <" + name + "> in <exercise> (objective, limit, hint)");
    }
  }
  if (d.objectives.empty()) r.fail(e, "an exercise needs at least one <objective>");
  std::map<std::string, int> index;
  for (size_t i = 0; i < d.objectives.size(); ++i)
    if (!index.emplace(d.objectives[i].name, int(i)).second)
      r.fail(objectiveElements[i], "duplicate objective name '" + d.objectives[i].name + "'");
  for (size_t i = 0; i < d.limits.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (d.limits[k].name == d.limits[i].name)
        throw SceneError(r.file(), d.limits[i].line,
                         "duplicate limit name '" + d.limits[i].name + "'");
  // Prerequisites: `after` names, or each objective after the one before it in a sequence.
  for (size_t i = 0; i < d.objectives.size(); ++i) {
    const XMLElement* c = objectiveElements[i];
    if (order == "sequence" && i > 0) d.objectives[i].after.push_back(int(i) - 1);
    if (const auto after = XmlReader::text(c, "after")) {
      std::istringstream in(*after);
      for (std::string name; in >> name;) {
        const auto k = index.find(name);
        if (k == index.end()) r.fail(c, "'after': no objective named '" + name + "'");
        d.objectives[i].after.push_back(k->second);
      }
    }
  }
  for (const XMLElement* c : hintElements) {
    r.allow(c, {"name", "text", "objective", "probe", "min", "max", "for", "penalty"});
    ExerciseHint h;
    h.line = c->GetLineNum();
    h.name = r.required(c, "name");
    h.text = r.required(c, "text");
    if (const auto objective = XmlReader::text(c, "objective")) {
      const auto k = index.find(*objective);
      if (k == index.end()) r.fail(c, "'objective': no objective named '" + *objective + "'");
      h.objective = k->second;
    }
    if (c->Attribute("probe")) {
      h.probe = r.required(c, "probe");
      h.min = r.number(c, "min", -1e300);
      h.max = r.number(c, "max", 1e300);
      if (!(h.min <= h.max)) r.fail(c, "'min' must not exceed 'max'");
    } else if (c->Attribute("min") || c->Attribute("max")) {
      r.fail(c, "'min' and 'max' bound a 'probe'");
    }
    if (h.objective < 0 && h.probe.empty())
      r.fail(c, "a hint needs an 'objective', a 'probe' or both");
    h.duration = nonNegative(r, c, "for", 0.0);
    h.penalty = nonNegative(r, c, "penalty", 0.0);
    d.hints.push_back(std::move(h));
  }
  // A cycle of prerequisites could never be done.
  std::vector<int> mark(d.objectives.size(), 0);  // 0 new, 1 on the path, 2 done
  std::function<void(int)> visit = [&](int i) {
    mark[size_t(i)] = 1;
    for (int k : d.objectives[size_t(i)].after) {
      if (mark[size_t(k)] == 1)
        r.fail(objectiveElements[size_t(i)], "objective '" + d.objectives[size_t(i)].name +
                                                 "': circular order through '" +
                                                 d.objectives[size_t(k)].name + "'");
      if (mark[size_t(k)] == 0) visit(k);
    }
    mark[size_t(i)] = 2;
  };
  for (size_t i = 0; i < d.objectives.size(); ++i)
    if (mark[i] == 0) visit(int(i));
  return d;
}

}  // namespace impetus
