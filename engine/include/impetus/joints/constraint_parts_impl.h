#pragma once
// Template part of constraint_parts.h.

namespace impetus::parts {

template <class MakeRow>
int limitRows(const JointBuildContext& ctx, const JointLimit& limit, double q, RowBuffer& rows,
              MakeRow makeRow) {
  // C_lower = q - lower >= 0 (Cdot = +qdot);  C_upper = upper - q >= 0 (Cdot = -qdot).
  const double gaps[2] = {q - limit.lower, limit.upper - q};
  int first = -1;
  for (int side = 0; side < 2; ++side) {
    const int index = makeRow();
    if (side == 0) first = index;
    ConstraintRow& row = rows.row(index);
    if (side == 1) negateRow(row);
    row.lower = 0.0;
    row.upper = 1e300;
    rows.lastBlock().treeRole = TreeRole::JointLimit;
    const double gap = gaps[side];
    if (ctx.positionPhase) {
      row.target = gap < 0.0 ? ctx.correctionTarget(gap) : -gap / ctx.dt;
    } else {
      row.target = gap > 0.0 ? -gap / ctx.dt : 0.0;  // may close the gap this step, no more
    }
  }
  return first;
}

}  // namespace impetus::parts
