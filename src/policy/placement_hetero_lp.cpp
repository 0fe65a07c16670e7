#include "policy/placement_hetero_lp.h"

#include <glpk.h>

#include <memory>

namespace boreas::policy {

namespace {

// GLPK keeps one environment per thread, made on first use and kept until glp_free_env() in that
// thread: experiment workers used the LP and left theirs behind (LeakSanitizer failed the run).
// Declared before the first problem of a thread, so it is destroyed after every problem is deleted.
struct GlpkThreadEnv {
  GlpkThreadEnv() = default;
  GlpkThreadEnv(const GlpkThreadEnv&) = delete;
  GlpkThreadEnv& operator=(const GlpkThreadEnv&) = delete;
  ~GlpkThreadEnv() { glp_free_env(); }
};

struct ProbDeleter {
  void operator()(glp_prob* p) const { glp_delete_prob(p); }
};
using Prob = std::unique_ptr<glp_prob, ProbDeleter>;

// The rate a group gets on the capacity-weighted mix of its allowed types.
double equal_share_rate(const LpGroup& g, const std::vector<double>& capacity) {
  double rate = 0, cap = 0;
  for (size_t t = 0; t < capacity.size(); ++t) {
    if (g.rate[t] > 0 && capacity[t] > 0) {
      rate += g.rate[t] * capacity[t];
      cap += capacity[t];
    }
  }
  return cap > 0 ? rate / cap : 0;
}

// Sparse constraint matrix in GLPK's 1-based triplets.
struct Triplets {
  std::vector<int> row{0}, col{0};
  std::vector<double> val{0};
  void add(int r, int c, double v) {
    row.push_back(r);
    col.push_back(c);
    val.push_back(v);
  }
};

}  // namespace

Result<std::vector<std::vector<double>>> max_min_allocation(const std::vector<LpGroup>& groups,
                                                            const std::vector<double>& capacity) {
  const int n_groups = static_cast<int>(groups.size());
  const int n_types = static_cast<int>(capacity.size());
  std::vector<std::vector<double>> x(groups.size(), std::vector<double>(capacity.size(), 0));
  if (groups.empty() || capacity.empty()) {
    return x;
  }
  thread_local GlpkThreadEnv env;  // freed when this thread ends
  Prob lp(glp_create_prob());
  glp_set_obj_dir(lp.get(), GLP_MAX);
  // Rows: fairness (z ≤ normalised throughput) per group, time share per group, capacity per type.
  glp_add_rows(lp.get(), 2 * n_groups + n_types);
  // Columns: x[g][t] at 1 + g·T + t, then z.
  const int z = n_groups * n_types + 1;
  glp_add_cols(lp.get(), z);
  glp_set_col_bnds(lp.get(), z, GLP_LO, 0, 0);
  glp_set_obj_coef(lp.get(), z, 1);
  Triplets m;
  for (int g = 0; g < n_groups; ++g) {
    const double equal = equal_share_rate(groups[g], capacity);
    glp_set_row_bnds(lp.get(), 1 + g, GLP_LO, 0, 0);
    glp_set_row_bnds(lp.get(), 1 + n_groups + g, GLP_UP, 0, 1);
    m.add(1 + g, z, -1);
    for (int t = 0; t < n_types; ++t) {
      const int col = 1 + g * n_types + t;
      const bool usable = groups[g].rate[t] > 0 && capacity[t] > 0 && equal > 0;
      glp_set_col_bnds(lp.get(), col, usable ? GLP_DB : GLP_FX, 0, usable ? 1 : 0);
      if (usable) {
        const double normalised = groups[g].rate[t] / equal;
        glp_set_obj_coef(lp.get(), col, 1e-3 * normalised / n_groups);
        m.add(1 + g, col, normalised);
        m.add(1 + n_groups + g, col, 1);
        m.add(1 + 2 * n_groups + t, col, groups[g].gpus);
      }
    }
  }
  for (int t = 0; t < n_types; ++t) {
    glp_set_row_bnds(lp.get(), 1 + 2 * n_groups + t, GLP_UP, 0, capacity[t]);
  }
  glp_load_matrix(lp.get(), static_cast<int>(m.row.size()) - 1, m.row.data(), m.col.data(), m.val.data());
  // The iteration cap bounds a round deterministically (a time limit would not be); the LP has a
  // handful of rows, so it is far above what an optimum needs.
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_ON;
  parm.it_lim = 5000;
  if (glp_simplex(lp.get(), &parm) != 0 || glp_get_status(lp.get()) != GLP_OPT) {
    return internal_error("hetero placement: GLPK found no optimal allocation (" +
                          std::to_string(groups.size()) + " groups, " + std::to_string(capacity.size()) +
                          " types)");
  }
  for (int g = 0; g < n_groups; ++g) {
    for (int t = 0; t < n_types; ++t) {
      x[g][t] = glp_get_col_prim(lp.get(), 1 + g * n_types + t);
    }
  }
  return x;
}

}  // namespace boreas::policy
