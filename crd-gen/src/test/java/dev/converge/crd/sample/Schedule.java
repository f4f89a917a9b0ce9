package dev.converge.crd.sample;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A resource whose spec holds the JDK, Jackson and fabric8 value types whose JSON is not a plain
 * bean.
 */
@Group("schedules.crd.converge.dev")
@Version("v1")
public class Schedule extends CustomResource<ScheduleSpec, Void> implements Namespaced {
  private static final long serialVersionUID = 1L;
}
