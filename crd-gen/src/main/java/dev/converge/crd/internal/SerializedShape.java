package dev.converge.crd.internal;

import tools.jackson.databind.JavaType;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsonFormatVisitors.JsonAnyFormatVisitor;
import tools.jackson.databind.jsonFormatVisitors.JsonArrayFormatVisitor;
import tools.jackson.databind.jsonFormatVisitors.JsonBooleanFormatVisitor;
import tools.jackson.databind.jsonFormatVisitors.JsonFormatVisitorWrapper;
import tools.jackson.databind.jsonFormatVisitors.JsonIntegerFormatVisitor;
import tools.jackson.databind.jsonFormatVisitors.JsonMapFormatVisitor;
import tools.jackson.databind.jsonFormatVisitors.JsonNullFormatVisitor;
import tools.jackson.databind.jsonFormatVisitors.JsonNumberFormatVisitor;
import tools.jackson.databind.jsonFormatVisitors.JsonObjectFormatVisitor;
import tools.jackson.databind.jsonFormatVisitors.JsonStringFormatVisitor;

/**
 * What JSON Jackson writes for a Java type, asked of the serializer Jackson would use (its format
 * visitor), so that the schema follows the serializer rather than the class's fields: a class with
 * {@code @JsonValue}, a JDK type written as a string ({@code URI}, {@code LocalTime}), a custom
 * serializer. A serializer that does not declare its output answers {@link Kind#UNKNOWN}.
 *
 * <p>The mapper is a plain Jackson 3 mapper, as fabric8's is for classes outside its model; the
 * round-trip check runs fabric8's own serialization against the API server.
 */
public final class SerializedShape {

  /** The JSON kinds a serializer may declare. */
  public enum Kind {
    OBJECT,
    ARRAY,
    MAP,
    STRING,
    NUMBER,
    INTEGER,
    BOOLEAN,
    UNKNOWN
  }

  private static final ObjectMapper MAPPER = JsonMapper.builder().build();

  private SerializedShape() {}

  /**
   * The kind of JSON written for {@code type}; {@link Kind#UNKNOWN} when the serializer does not
   * say.
   */
  public static Kind of(Class<?> type) {
    JavaType javaType = MAPPER.getTypeFactory().constructType(type);
    Recorder recorder = new Recorder();
    try {
      MAPPER.acceptJsonFormatVisitor(javaType, recorder);
    } catch (RuntimeException e) {
      // A serializer that cannot even be built or visited cannot be described either; the caller
      // reports the type with the field and the fix.
      return Kind.UNKNOWN;
    }
    return recorder.kind;
  }

  private static final class Recorder extends JsonFormatVisitorWrapper.Base {
    private Kind kind = Kind.UNKNOWN;

    @Override
    public JsonObjectFormatVisitor expectObjectFormat(JavaType type) {
      kind = Kind.OBJECT;
      return null;
    }

    @Override
    public JsonArrayFormatVisitor expectArrayFormat(JavaType type) {
      kind = Kind.ARRAY;
      return null;
    }

    @Override
    public JsonStringFormatVisitor expectStringFormat(JavaType type) {
      kind = Kind.STRING;
      return null;
    }

    @Override
    public JsonNumberFormatVisitor expectNumberFormat(JavaType type) {
      kind = Kind.NUMBER;
      return null;
    }

    @Override
    public JsonIntegerFormatVisitor expectIntegerFormat(JavaType type) {
      kind = Kind.INTEGER;
      return null;
    }

    @Override
    public JsonBooleanFormatVisitor expectBooleanFormat(JavaType type) {
      kind = Kind.BOOLEAN;
      return null;
    }

    @Override
    public JsonNullFormatVisitor expectNullFormat(JavaType type) {
      kind = Kind.UNKNOWN;
      return null;
    }

    @Override
    public JsonAnyFormatVisitor expectAnyFormat(JavaType type) {
      kind = Kind.UNKNOWN;
      return null;
    }

    @Override
    public JsonMapFormatVisitor expectMapFormat(JavaType type) {
      kind = Kind.MAP;
      return null;
    }
  }
}
