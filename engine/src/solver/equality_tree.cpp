#include "impetus/solver/equality_tree.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "impetus/solver/row_buffer.h"
#include "impetus/solver/sequential_impulse_solver.h"

namespace impetus {
namespace {

bool isDynamic(const SolverBodyMass& b) {
  return b.inverseMass > 0.0;
}

/// Inverts a symmetric definite 6 x 6 block (sign = +1 positive, -1 negative definite); false
/// when a pivot is not clearly non-zero (dependent rows).
bool invertDefinite(const Eigen::Matrix<double, 6, 6>& d, double sign,
                    Eigen::Matrix<double, 6, 6>& inverse) {
  const Eigen::Matrix<double, 6, 6> positive = sign * d;
  const Eigen::LLT<Eigen::Matrix<double, 6, 6>> llt(positive);
  if (llt.info() != Eigen::Success) return false;
  const auto l = llt.matrixLLT().diagonal();
  const double largest = positive.diagonal().maxCoeff();
  if (!(l.minCoeff() * l.minCoeff() > 1e-12 * largest)) return false;
  inverse = sign * llt.solve(Eigen::Matrix<double, 6, 6>::Identity());
  return true;
}

}  // namespace

int EqualityTree::find(int node) {
  while (unionParent_[static_cast<size_t>(node)] != node) {
    int& p = unionParent_[static_cast<size_t>(node)];
    p = unionParent_[static_cast<size_t>(p)];  // path halving
    node = p;
  }
  return node;
}

EqualityTree::Vec6 EqualityTree::jacobianOf(const RowBlock& block,
                                            std::span<const ConstraintRow> rows, int row,
                                            int nodeKind, bool sideB) const {
  const ConstraintRow& r = rows[static_cast<size_t>(block.first + row)];
  Vec6 j = Vec6::Zero();
  if (nodeKind == static_cast<int>(NodeKind::Rotor)) {
    j(0) = r.rotorJacobian;
  } else if (sideB) {
    j << r.linearB, r.angularB;
  } else {
    j << r.linearA, r.angularA;
  }
  return j;
}

bool EqualityTree::build(std::span<const ConstraintRow> rows, std::span<RowBlock> blocks,
                         std::span<const SolverBodyMass> bodies,
                         std::span<const double> rotorInverseInertia) {
  nodes_.clear();
  blocks_.clear();
  order_.clear();
  unionParent_.clear();
  bodyNode_.assign(bodies.size(), -1);
  rotorNode_.assign(rotorInverseInertia.size(), -1);
  const auto newNode = [&](NodeKind kind, int index) {
    Node& n = nodes_.emplace_back();
    n.kind = kind;
    n.index = index;
    n.parent = -1;
    unionParent_.push_back(static_cast<int>(nodes_.size()) - 1);
    return static_cast<int>(nodes_.size()) - 1;
  };

  // Choose the blocks: equality blocks that keep the body-constraint graph a forest.
  for (size_t b = 0; b < blocks.size(); ++b) {
    RowBlock& block = blocks[b];
    block.direct = false;
    if (block.kind != BlockKind::Equality) continue;
    const ConstraintRow& r0 = rows[static_cast<size_t>(block.first)];
    bool usesRotor = false;
    for (int i = 0; i < block.count; ++i)
      usesRotor = usesRotor || rows[static_cast<size_t>(block.first + i)].rotorJacobian != 0.0;
    usesRotor =
        usesRotor && r0.rotor > 0 && rotorInverseInertia[static_cast<size_t>(r0.rotor)] > 0.0;
    // Endpoints: (kind, index, existing node or -1).
    int kinds[3], indices[3], count = 0;
    if (isDynamic(bodies[static_cast<size_t>(r0.bodyA)])) {
      kinds[count] = 0;
      indices[count++] = r0.bodyA;
    }
    if (r0.bodyB != r0.bodyA && isDynamic(bodies[static_cast<size_t>(r0.bodyB)])) {
      kinds[count] = 0;
      indices[count++] = r0.bodyB;
    }
    if (usesRotor) {
      kinds[count] = 1;
      indices[count++] = r0.rotor;
    }
    if (count == 0) continue;
    const auto existing = [&](int k) {
      return kinds[k] == 0 ? bodyNode_[static_cast<size_t>(indices[k])]
                           : rotorNode_[static_cast<size_t>(indices[k])];
    };
    bool closesLoop = false;
    for (int k = 0; k < count && !closesLoop; ++k)
      for (int m = 0; m < k && !closesLoop; ++m)
        if (existing(k) >= 0 && existing(m) >= 0 && find(existing(k)) == find(existing(m)))
          closesLoop = true;
    if (closesLoop) continue;  // stays in the Gauss-Seidel sweep
    const int constraint = newNode(NodeKind::Constraint, static_cast<int>(b));
    for (int k = 0; k < count; ++k) {
      int node = existing(k);
      if (node < 0) {
        node = newNode(kinds[k] == 0 ? NodeKind::Body : NodeKind::Rotor, indices[k]);
        (kinds[k] == 0 ? bodyNode_ : rotorNode_)[static_cast<size_t>(indices[k])] = node;
      }
      unionParent_[static_cast<size_t>(find(node))] = find(constraint);
    }
    blocks_.push_back(static_cast<int>(b));
  }
  if (blocks_.size() < 2) {  // one block alone is what the sweep already solves exactly
    blocks_.clear();
    return false;
  }

  // Adjacency (constraint <-> body/rotor), then a breadth-first order from each root; eliminating
  // in reverse breadth-first order takes every child before its parent.
  const size_t n = nodes_.size();
  if (adjacency_.size() < n) adjacency_.resize(n);
  for (size_t i = 0; i < n; ++i) adjacency_[i].clear();
  for (size_t i = 0; i < n; ++i) {
    if (nodes_[i].kind != NodeKind::Constraint) continue;
    const RowBlock& block = blocks[static_cast<size_t>(nodes_[i].index)];
    const ConstraintRow& r0 = rows[static_cast<size_t>(block.first)];
    const int ends[3] = {bodyNode_[static_cast<size_t>(r0.bodyA)],
                         r0.bodyB != r0.bodyA ? bodyNode_[static_cast<size_t>(r0.bodyB)] : -1,
                         rotorNode_[static_cast<size_t>(r0.rotor)]};
    for (int e : ends) {
      if (e < 0) continue;
      // A rotor node belongs to this block only if the block uses the rotor column.
      if (nodes_[static_cast<size_t>(e)].kind == NodeKind::Rotor) {
        bool uses = false;
        for (int k = 0; k < block.count; ++k)
          uses = uses || rows[static_cast<size_t>(block.first + k)].rotorJacobian != 0.0;
        if (!uses) continue;
      }
      adjacency_[i].push_back(e);
      adjacency_[static_cast<size_t>(e)].push_back(static_cast<int>(i));
    }
  }
  visited_.assign(n, 0);
  queue_.clear();
  for (size_t root = 0; root < n; ++root) {
    if (visited_[root]) continue;
    visited_[root] = 1;
    queue_.push_back(static_cast<int>(root));
    for (size_t head = queue_.size() - 1; head < queue_.size(); ++head) {
      const int i = queue_[head];
      for (int next : adjacency_[static_cast<size_t>(i)]) {
        if (visited_[static_cast<size_t>(next)]) continue;
        visited_[static_cast<size_t>(next)] = 1;
        nodes_[static_cast<size_t>(next)].parent = i;
        queue_.push_back(next);
      }
    }
  }
  order_.assign(queue_.rbegin(), queue_.rend());

  // Diagonal blocks and couplings (zero-padded to 6; padding is +-identity on the diagonal).
  diagonal_.resize(n);
  y_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    Node& node = nodes_[i];
    Mat6& d = diagonal_[i];
    d.setIdentity();
    if (node.kind == NodeKind::Body) {
      const SolverBodyMass& m = bodies[static_cast<size_t>(node.index)];
      d.topLeftCorner<3, 3>() = Mat3::Identity() / m.inverseMass;
      d.bottomRightCorner<3, 3>() = m.inverseInertia.inverse();
    } else if (node.kind == NodeKind::Rotor) {
      d(0, 0) = 1.0 / rotorInverseInertia[static_cast<size_t>(node.index)];
    } else {
      const RowBlock& block = blocks[static_cast<size_t>(node.index)];
      d = -Mat6::Identity();
      for (int k = 0; k < block.count; ++k)
        d(k, k) = -rows[static_cast<size_t>(block.first + k)].softness;
    }
    node.coupling.setZero();
    if (node.parent < 0) continue;
    const Node& parent = nodes_[static_cast<size_t>(node.parent)];
    // A(constraint, body) = -J (rows x 6); A(body, constraint) = its transpose.
    const bool childIsConstraint = node.kind == NodeKind::Constraint;
    const Node& constraintNode = childIsConstraint ? node : parent;
    const Node& endNode = childIsConstraint ? parent : node;
    const RowBlock& block = blocks[static_cast<size_t>(constraintNode.index)];
    const ConstraintRow& r0 = rows[static_cast<size_t>(block.first)];
    const bool sideB = endNode.kind == NodeKind::Body && r0.bodyB == endNode.index;
    for (int k = 0; k < block.count; ++k) {
      const Vec6 j = jacobianOf(block, rows, k, static_cast<int>(endNode.kind), sideB);
      if (childIsConstraint)
        node.coupling.row(k) = -j.transpose();
      else
        node.coupling.col(k) = -j;
    }
  }

  // LDL^T, leaves first: D_p -= A(i,p)^T D_i^-1 A(i,p).
  for (int i : order_) {
    Node& node = nodes_[static_cast<size_t>(i)];
    const double sign = node.kind == NodeKind::Constraint ? -1.0 : 1.0;
    if (!invertDefinite(diagonal_[static_cast<size_t>(i)], sign, node.inverseD)) {
      for (int b : blocks_) blocks[static_cast<size_t>(b)].direct = false;
      blocks_.clear();
      return false;
    }
    if (node.parent >= 0)
      diagonal_[static_cast<size_t>(node.parent)].noalias() -=
          node.coupling.transpose() * node.inverseD * node.coupling;
  }
  for (int b : blocks_) blocks[static_cast<size_t>(b)].direct = true;
  return true;
}

double EqualityTree::solve(std::span<ConstraintRow> rows, std::span<const RowBlock> blocks,
                           std::span<SolverVelocity> bodies, std::span<double> rotorSpeeds) {
  const size_t n = nodes_.size();
  for (size_t i = 0; i < n; ++i) {
    Vec6& y = y_[i];
    y.setZero();
    if (nodes_[i].kind != NodeKind::Constraint) continue;
    const RowBlock& block = blocks[static_cast<size_t>(nodes_[i].index)];
    for (int k = 0; k < block.count; ++k) {
      const ConstraintRow& r = rows[static_cast<size_t>(block.first + k)];
      const SolverVelocity& a = bodies[static_cast<size_t>(r.bodyA)];
      const SolverVelocity& b = bodies[static_cast<size_t>(r.bodyB)];
      y(k) = r.linearA.dot(a.linear) + r.angularA.dot(a.angular) + r.linearB.dot(b.linear) +
             r.angularB.dot(b.angular) +
             r.rotorJacobian * rotorSpeeds[static_cast<size_t>(r.rotor)] + r.softness * r.impulse -
             r.target;
    }
  }
  for (int i : order_) {  // forward: z = D^-1 y, pushing each child's share into its parent
    Node& node = nodes_[static_cast<size_t>(i)];
    node.z.noalias() = node.inverseD * y_[static_cast<size_t>(i)];
    if (node.parent >= 0)
      y_[static_cast<size_t>(node.parent)].noalias() -= node.coupling.transpose() * node.z;
  }
  for (auto it = order_.rbegin(); it != order_.rend(); ++it) {  // backward: x = z - D^-1 A x_p
    Node& node = nodes_[static_cast<size_t>(*it)];
    if (node.parent >= 0)
      node.z.noalias() -=
          node.inverseD * (node.coupling * nodes_[static_cast<size_t>(node.parent)].z);
  }
  double largest = 0.0;
  for (const Node& node : nodes_) {
    if (node.kind != NodeKind::Constraint) continue;
    const RowBlock& block = blocks[static_cast<size_t>(node.index)];
    for (int k = 0; k < block.count; ++k) {
      ConstraintRow& r = rows[static_cast<size_t>(block.first + k)];
      const double dp = node.z(k);
      r.impulse += dp;
      SolverVelocity& a = bodies[static_cast<size_t>(r.bodyA)];
      SolverVelocity& b = bodies[static_cast<size_t>(r.bodyB)];
      a.linear += dp * r.responseLinearA;
      a.angular += dp * r.responseAngularA;
      b.linear += dp * r.responseLinearB;
      b.angular += dp * r.responseAngularB;
      rotorSpeeds[static_cast<size_t>(r.rotor)] += dp * r.responseRotor;
      largest = std::max(largest, std::abs(dp));
    }
  }
  return largest;
}

}  // namespace impetus
