package dev.converge.operator.internal;

import io.fabric8.kubernetes.api.builder.Builder;
import io.fabric8.kubernetes.api.builder.Editable;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Private copies of cached objects of the built-in kinds, made with the model's own builders
 * ({@code edit().build()}) rather than a JSON round trip: several times cheaper, and a reconcile
 * reads several objects from the cache. Builders copy every nested object, list and map except the
 * free-form trees of {@code managedFields[].fieldsV1}, which are copied here; a class without a
 * builder is copied through JSON.
 */
final class ObjectCopy {

  private ObjectCopy() {}

  @SuppressWarnings("unchecked")
  static <T extends HasMetadata> T of(T object, KubernetesSerialization serialization) {
    if (object instanceof Editable<?> editable && editable.edit() instanceof Builder<?> builder) {
      Object built = builder.build();
      if (object.getClass() == built.getClass()) {
        T copy = (T) built;
        unshareFieldsV1(copy);
        return copy;
      }
    }
    return serialization.clone(object);
  }

  private static void unshareFieldsV1(HasMetadata copy) {
    if (copy.getMetadata() == null || copy.getMetadata().getManagedFields() == null) {
      return;
    }
    for (ManagedFieldsEntry entry : copy.getMetadata().getManagedFields()) {
      FieldsV1 fields = entry.getFieldsV1();
      if (fields != null && fields.getAdditionalProperties() != null) {
        fields.setAdditionalProperties(deepCopy(fields.getAdditionalProperties()));
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> deepCopy(Map<String, Object> map) {
    Map<String, Object> copy = new LinkedHashMap<>(Math.max(4, map.size() * 2));
    map.forEach((key, value) -> copy.put(key, copyValue(value)));
    return copy;
  }

  @SuppressWarnings("unchecked")
  private static Object copyValue(Object value) {
    if (value instanceof Map<?, ?> map) {
      return deepCopy((Map<String, Object>) map);
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>(list.size());
      list.forEach(item -> copy.add(copyValue(item)));
      return copy;
    }
    return value; // strings, numbers, booleans, null: immutable
  }
}
