import SerializerSelector, {
  type Serializer,
  type SerializerFactory,
} from '@fastify/fast-json-stringify-compiler';

const fastJsonStringify = SerializerSelector();
const compiled = new WeakMap<object, Serializer>();

/**
 * Fastify's response serializers (fast-json-stringify), compiled once per response schema for
 * the whole process instead of once per app: compiling them was most of an app's build (~0.4 s
 * of CPU; `serve` builds one app per environment, the tests hundreds). A serializer depends on
 * its schema, the shared schemas (`addSchema`: none here) and the serializer options (none), so
 * the schema object the routes declare once is the key; with either given, nothing is shared.
 */
export const sharedSerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = fastJsonStringify(externalSchemas, options);
  const shareable =
    Object.keys(externalSchemas ?? {}).length === 0 && Object.keys(options ?? {}).length === 0;
  return (route) => {
    const schema = route.schema;
    if (!shareable || typeof schema !== 'object' || schema === null) return compile(route);
    let serialize = compiled.get(schema);
    if (serialize === undefined) {
      serialize = compile(route);
      compiled.set(schema, serialize);
    }
    return serialize;
  };
};
