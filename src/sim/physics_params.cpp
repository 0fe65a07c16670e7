// PhysicsOptions <-> the declared model parameters (models/params.h), for `boreas sim --param`.

#include "sim/physics.h"

namespace boreas::sim {

models::ModelParams model_params(const PhysicsOptions& o) {
  models::ModelParams p;
  p.comm = o.comm;
  p.power = o.power;
  p.thermal = o.thermal;
  p.failure = o.failure;
  p.spot = o.spot;
  p.cost = o.cost;
  p.workload.training_activity = o.training_activity;
  p.workload.inference_activity = o.inference_activity;
  p.workload.comm_bytes = o.comm_bytes;
  p.workload.step_compute_s = o.step_compute_s;
  p.workload.comm_overlap = o.comm_overlap;
  p.workload.checkpoint_write_s = o.checkpoint_write.to_seconds();
  return p;
}

void set_model_params(PhysicsOptions& o, const models::ModelParams& p) {
  o.comm = p.comm;
  o.power = p.power;
  o.thermal = p.thermal;
  o.failure = p.failure;
  o.spot = p.spot;
  o.cost = p.cost;
  o.training_activity = p.workload.training_activity;
  o.inference_activity = p.workload.inference_activity;
  o.comm_bytes = p.workload.comm_bytes;
  o.step_compute_s = p.workload.step_compute_s;
  o.comm_overlap = p.workload.comm_overlap;
  o.checkpoint_write = Duration::from_seconds(p.workload.checkpoint_write_s);
  o.restore = Duration::from_seconds(models::default_restore_s(p));
}

// The checkpoint model's own parameters are not kept in PhysicsOptions: start from the defaults.
Status apply_param_overrides(PhysicsOptions& o, std::span<const models::ParamOverride> overrides) {
  models::ModelParams p = model_params(o);
  BOREAS_RETURN_IF_ERROR(models::apply_overrides(p, overrides));
  set_model_params(o, p);
  return Status::ok();
}

}  // namespace boreas::sim
