#include "impetus/scheme/scheme.h"

#include "impetus/session/state_stream.h"

#include <algorithm>
#include <functional>
#include <map>

#include "impetus/scheme/block_library.h"

namespace impetus {

Scheme::Scheme(Scheme&&) noexcept = default;
Scheme& Scheme::operator=(Scheme&&) noexcept = default;
Scheme::~Scheme() = default;

namespace {

std::string joined(const std::vector<std::string>& names, const char* separator = ", ") {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i ? separator : "") + names[i];
  return s;
}

}  // namespace

Scheme Scheme::compile(const SchemeDesc& desc, World& world, std::vector<std::string> channels) {
  Scheme s;
  s.channels_ = std::move(channels);
  const size_t n = desc.blocks.size();
  std::map<std::string, size_t> byName;
  std::vector<Node> nodes(n);

  // Blocks and their output signals.
  for (size_t i = 0; i < n; ++i) {
    const BlockDesc& d = desc.blocks[i];
    if (d.name.empty()) throw SchemeError(blockContext(d) + "a block needs a name");
    if (!byName.emplace(d.name, i).second)
      throw SchemeError(blockContext(d) + "duplicate block name");
    const BlockFactory factory = findBlockType(d.type);
    if (!factory)
      throw SchemeError(blockContext(d) + "unknown block type '" + d.type +
                        "' (known: " + joined(blockTypeNames()) + ")");
    nodes[i].name = d.name;
    nodes[i].block = factory(BlockBuild(d, world, s.channels_));
    nodes[i].firstOutput = static_cast<int>(s.signalNames_.size());
    for (const std::string& out : nodes[i].block->outputNames())
      s.signalNames_.push_back(d.name + "." + out);
  }
  s.signals_.assign(s.signalNames_.size(), 0.0);

  // Wire inputs; remember which block feeds which (edges into feedthrough blocks order them).
  std::vector<std::vector<size_t>> readers(n);
  std::vector<int> pending(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const BlockDesc& d = desc.blocks[i];
    const Block& block = *nodes[i].block;
    for (const auto& [port, source] : d.inputs)
      if (std::find(block.inputNames().begin(), block.inputNames().end(), port) ==
          block.inputNames().end())
        throw SchemeError(blockContext(d) + "unknown input port '" + port +
                          "' (ports: " + joined(block.inputNames()) + ")");
    for (const std::string& port : block.inputNames()) {
      const auto it = d.inputs.find(port);
      if (it == d.inputs.end())
        throw SchemeError(blockContext(d) + "input '" + port + "' is not connected");
      const std::string& source = it->second;
      const size_t dot = source.find('.');
      const std::string sourceBlock = source.substr(0, dot);
      const auto from = byName.find(sourceBlock);
      if (from == byName.end())
        throw SchemeError(blockContext(d) + "input '" + port + "' reads unknown block '" +
                          sourceBlock + "'");
      const Block& src = *nodes[from->second].block;
      int output = 0;
      if (dot != std::string::npos) {
        const std::string sourcePort = source.substr(dot + 1);
        const auto o = std::find(src.outputNames().begin(), src.outputNames().end(), sourcePort);
        if (o == src.outputNames().end())
          throw SchemeError(blockContext(d) + "input '" + port + "' reads unknown output '" +
                            source + "' (outputs: " + joined(src.outputNames()) + ")");
        output = static_cast<int>(o - src.outputNames().begin());
      } else if (src.outputNames().empty()) {
        throw SchemeError(blockContext(d) + "input '" + port + "' reads '" + source +
                          "', which has no outputs");
      }
      nodes[i].inputSignals.push_back(nodes[from->second].firstOutput + output);
      if (block.directFeedthrough()) {
        readers[from->second].push_back(i);
        ++pending[i];
      }
    }
    nodes[i].inputValues.assign(block.inputNames().size(), 0.0);
  }

  // Kahn's topological sort, stable in scene order.
  std::vector<size_t> order;
  std::vector<int> remaining = pending;
  std::vector<bool> placed(n, false);
  for (bool progress = true; progress && order.size() < n;) {
    progress = false;
    for (size_t i = 0; i < n; ++i) {
      if (placed[i] || remaining[i] > 0) continue;
      placed[i] = true;
      order.push_back(i);
      for (size_t r : readers[i]) --remaining[r];
      progress = true;
    }
  }
  if (order.size() < n) {
    // Name one cycle among the unplaced blocks: walk feedthrough edges until a block repeats.
    std::vector<std::vector<size_t>> feeds(n);  // reader -> sources among unplaced
    for (size_t i = 0; i < n; ++i)
      for (size_t r : readers[i])
        if (!placed[i] && !placed[r]) feeds[r].push_back(i);
    size_t start = 0;
    while (placed[start] || feeds[start].empty()) ++start;
    std::vector<size_t> path;
    std::vector<int> seenAt(n, -1);
    size_t at = start;
    while (seenAt[at] < 0) {
      seenAt[at] = static_cast<int>(path.size());
      path.push_back(at);
      at = feeds[at].front();
    }
    std::vector<std::string> loop;
    for (size_t k = static_cast<size_t>(seenAt[at]); k < path.size(); ++k)
      loop.push_back(nodes[path[k]].name);
    std::reverse(loop.begin(), loop.end());  // in signal-flow order
    loop.push_back(loop.front());
    const BlockDesc& first = desc.blocks[byName[loop.front()]];
    throw SchemeError(blockContext(first) + "algebraic loop " + joined(loop, " -> ") +
                      " (a loop needs a unit delay or an integrator)");
  }
  for (size_t i : order) s.nodes_.push_back(std::move(nodes[i]));
  return s;
}

void Scheme::step(std::span<const double> channelValues, double dt) {
  const SchemeContext ctx{dt, channelValues};
  for (Node& node : nodes_) {
    for (size_t k = 0; k < node.inputSignals.size(); ++k)
      node.inputValues[k] = signals_[static_cast<size_t>(node.inputSignals[k])];
    node.block->evaluate(node.inputValues.data(), signals_.data() + node.firstOutput, ctx);
  }
  for (Node& node : nodes_) {
    if (node.block->directFeedthrough() && node.inputValues.empty()) continue;
    for (size_t k = 0; k < node.inputSignals.size(); ++k)
      node.inputValues[k] = signals_[static_cast<size_t>(node.inputSignals[k])];
    node.block->update(node.inputValues.data(), ctx);
  }
}

void Scheme::reset() {
  for (Node& node : nodes_) node.block->reset();
  std::fill(signals_.begin(), signals_.end(), 0.0);
}

int Scheme::channelIndex(const std::string& name) const {
  const auto it = std::find(channels_.begin(), channels_.end(), name);
  return it == channels_.end() ? -1 : static_cast<int>(it - channels_.begin());
}

int Scheme::signalIndex(const std::string& name) const {
  std::string full = name;
  if (full.find('.') == std::string::npos) {  // "block": its first output
    for (const Node& node : nodes_)
      if (node.name == name && !node.block->outputNames().empty()) return node.firstOutput;
    return -1;
  }
  const auto it = std::find(signalNames_.begin(), signalNames_.end(), full);
  return it == signalNames_.end() ? -1 : static_cast<int>(it - signalNames_.begin());
}

double Scheme::signal(const std::string& name) const {
  const int i = signalIndex(name);
  if (i < 0) throw SchemeError("no scheme signal '" + name + "'");
  return signals_[static_cast<size_t>(i)];
}

std::vector<std::string> Scheme::evaluationOrder() const {
  std::vector<std::string> names;
  for (const Node& node : nodes_) names.push_back(node.name);
  return names;
}

void Scheme::saveState(StateWriter& out) const {
  out.tag(stateTag("SCHM"));
  out.put(static_cast<std::uint64_t>(nodes_.size()));
  out.put(std::span<const double>(signals_));
  for (const Node& n : nodes_) n.block->saveState(out);
}

void Scheme::loadState(StateReader& in) {
  in.expect(stateTag("SCHM"), "scheme");
  StateReader::requireSame(in.get<std::uint64_t>(), nodes_.size(), "scheme blocks");
  std::vector<double> signals;
  in.get(signals);
  StateReader::requireSame(signals.size(), signals_.size(), "scheme signals");
  signals_ = std::move(signals);
  for (Node& n : nodes_) n.block->loadState(in);
}

}  // namespace impetus
