package dev.converge.schema;

/**
 * The type of one position in a resource, as the API server's OpenAPI v3 schema describes it. The
 * four shapes are the ones the server's own merge and compare logic distinguishes: scalars, maps
 * (structs with named fields and string-keyed maps alike), lists (atomic, set or keyed map) and
 * untyped positions whose shape is taken from the value itself.
 */
public sealed interface SchemaNode permits ScalarSchema, MapSchema, ListSchema, UntypedSchema {}
