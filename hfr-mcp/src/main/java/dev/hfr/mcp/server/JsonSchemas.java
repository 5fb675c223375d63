package dev.hfr.mcp.server;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON Schema of a Java parameter or return type, as precise as the type says and no more: strings,
 * integers, numbers, booleans, enums (with their constants), collections and arrays (with their item
 * type), and an open {@code object} for anything else (records and beans are bound by Jackson).
 */
final class JsonSchemas {

  private JsonSchemas() {}

  static Map<String, Object> of(Type type) {
    Class<?> raw = raw(type);
    if (raw == String.class || raw == Character.class || raw == char.class) {
      return Map.of("type", "string");
    }
    if (raw == int.class || raw == long.class || raw == short.class || raw == byte.class || raw == Integer.class
        || raw == Long.class || raw == Short.class || raw == Byte.class || raw == BigInteger.class) {
      return Map.of("type", "integer");
    }
    if (raw == double.class || raw == float.class || raw == Double.class || raw == Float.class
        || raw == BigDecimal.class) {
      return Map.of("type", "number");
    }
    if (raw == boolean.class || raw == Boolean.class) {
      return Map.of("type", "boolean");
    }
    if (raw.isEnum()) {
      List<String> names = new ArrayList<>();
      for (Object c : raw.getEnumConstants()) {
        names.add(((Enum<?>) c).name());
      }
      return Map.of("type", "string", "enum", names);
    }
    if (raw == Optional.class && type instanceof ParameterizedType p) {
      return of(p.getActualTypeArguments()[0]);
    }
    if (raw.isArray()) {
      Type item = type instanceof GenericArrayType g ? g.getGenericComponentType() : raw.getComponentType();
      return Map.of("type", "array", "items", of(item));
    }
    if (Collection.class.isAssignableFrom(raw)) {
      Type item = type instanceof ParameterizedType p ? p.getActualTypeArguments()[0] : Object.class;
      return Map.of("type", "array", "items", of(item));
    }
    if (raw == Object.class) {
      return Map.of();
    }
    return Map.of("type", "object");
  }

  /** The input schema of a tool: one property per parameter, all required but {@code Optional} ones. */
  static Map<String, Object> object(Map<String, Type> properties) {
    Map<String, Object> props = new LinkedHashMap<>();
    List<String> required = new ArrayList<>();
    properties.forEach((name, type) -> {
      props.put(name, of(type));
      if (raw(type) != Optional.class) {
        required.add(name);
      }
    });
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", props);
    schema.put("required", required);
    return schema;
  }

  static Class<?> raw(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType p) {
      return (Class<?>) p.getRawType();
    }
    if (type instanceof GenericArrayType g) {
      return java.lang.reflect.Array.newInstance(raw(g.getGenericComponentType()), 0).getClass();
    }
    return Object.class;
  }
}
