package dev.converge.schema.internal;

import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.BeanProperty;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.BeanDeserializerBuilder;
import tools.jackson.databind.deser.SettableAnyProperty;
import tools.jackson.databind.deser.ValueDeserializerModifier;
import tools.jackson.databind.introspect.AnnotatedMember;
import tools.jackson.databind.introspect.AnnotatedMethod;
import tools.jackson.databind.module.SimpleModule;

/**
 * Calls {@code @JsonAnySetter} methods directly.
 *
 * <p>Jackson 3 calls an any-setter method by binding a method handle to the object and invoking it
 * with an argument array, anew for every property it sets: each call builds and adapts method
 * handles. fabric8's model sends every property a class does not declare through its any-setter
 * ({@code setAdditionalProperty}): all of a {@code managedFields} entry's {@code fieldsV1}, the
 * {@code spec} and {@code status} of a {@code GenericKubernetesResource}, any field a custom
 * resource class leaves out. Profiled on an operator's watch threads, those calls were an eighth of
 * their CPU.
 *
 * <p>This module gives each such method a small generated class that calls it, made once per class,
 * as Blackbird does for ordinary setters. A method it cannot reach that way (not public, a name
 * parameter that does not take a {@code String}, a value parameter not declared {@code Object}, a
 * value deserializer named on the method) keeps Jackson's way. What is set is the same. The
 * replacement carries no type handling for the values: it is for {@link
 * dev.converge.schema.Json#serialization()}, whose mapper has no default typing, and is not
 * registered elsewhere.
 */
public final class DirectAnySetters extends SimpleModule {

  private static final long serialVersionUID = 1L;

  /** What the generated classes implement. */
  @FunctionalInterface
  interface Setter {
    void set(Object bean, Object name, Object value);
  }

  /** The module, with one generated caller per any-setter method, made as classes are read. */
  public DirectAnySetters() {
    super("converge-direct-any-setters");
    setDeserializerModifier(new Replacer());
  }

  private static final class Replacer extends ValueDeserializerModifier {
    private static final long serialVersionUID = 1L;

    @Override
    public BeanDeserializerBuilder updateBuilder(
        DeserializationConfig config,
        BeanDescription.Supplier beanDesc,
        BeanDeserializerBuilder builder) {
      SettableAnyProperty current = builder.getAnySetter();
      if (current == null
          || !current.isSetterType()
          || current.hasValueDeserializer()
          || current.getType().getRawClass() != Object.class) {
        return builder;
      }
      AnnotatedMember member = beanDesc.get().findAnySetterAccessor();
      if (!(member instanceof AnnotatedMethod method) || method.getParameterCount() != 2) {
        return builder;
      }
      Setter setter = setterFor(method.getAnnotated());
      if (setter != null) {
        builder.setAnySetter(null); // the builder takes a replacement only in place of nothing
        builder.setAnySetter(
            new DirectAnySetter(current.getProperty(), method, current.getType(), null, setter));
      }
      return builder;
    }
  }

  /** A generated caller of {@code method}, or null where the method is not one to call so. */
  static Setter setterFor(Method method) {
    Class<?> owner = method.getDeclaringClass();
    Class<?>[] parameters = method.getParameterTypes();
    if (!Modifier.isPublic(method.getModifiers())
        || !Modifier.isPublic(owner.getModifiers())
        || Modifier.isStatic(method.getModifiers())
        || !parameters[0].isAssignableFrom(String.class)
        || parameters[1] != Object.class) {
      return null;
    }
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      MethodHandle target = lookup.unreflect(method);
      CallSite site =
          LambdaMetafactory.metafactory(
              lookup,
              "set",
              MethodType.methodType(Setter.class),
              MethodType.methodType(void.class, Object.class, Object.class, Object.class),
              target,
              MethodType.methodType(void.class, owner, parameters[0], Object.class));
      return (Setter) site.getTarget().invoke();
    } catch (Throwable e) { // a class loader or module that does not allow it: Jackson's way
      return null;
    }
  }

  /** Sets through a {@link Setter}; everything else as Jackson's own any-setter does. */
  static final class DirectAnySetter extends SettableAnyProperty {
    private final Setter setter;

    DirectAnySetter(
        BeanProperty property,
        AnnotatedMember member,
        JavaType type,
        ValueDeserializer<Object> values,
        Setter setter) {
      super(property, member, type, null, values, null);
      this.setter = setter;
    }

    @Override
    protected void _set(DeserializationContext ctxt, Object instance, Object name, Object value) {
      setter.set(instance, name, value);
    }

    @Override
    public SettableAnyProperty withValueDeserializer(ValueDeserializer<Object> values) {
      return new DirectAnySetter(_property, _setter, _type, values, setter);
    }
  }
}
