package io.tlogsim.kernel;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DatabindContext;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import com.fasterxml.jackson.databind.jsontype.TypeDeserializer;
import com.fasterxml.jackson.databind.jsontype.impl.AsPropertyTypeDeserializer;
import com.fasterxml.jackson.databind.jsontype.impl.StdTypeResolverBuilder;
import com.fasterxml.jackson.databind.jsontype.impl.TypeIdResolverBase;
import java.io.IOException;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Every logical type name the modules on the class path declare ({@link TypeNames}, found with
 * {@link ServiceLoader}): what a {@link Typed} value is written as, and the only types built when one is read. A
 * name that is not here, a Java class name above all, is refused with Jackson's invalid-type-id error; so is writing
 * a value whose class has no name (a model's new record must be declared before it can be checkpointed or sent).
 */
public final class TypeRegistry {
  /** The property that holds a value's name. */
  static final String PROPERTY = "@type";
  /** Where journals from before logical names hold the Java class name (read for the names' {@code formerly}). */
  static final String FORMER_PROPERTY = "@class";
  private static final String NAME = "[A-Za-z][A-Za-z0-9_.\\-\\[\\]]*";

  private static volatile TypeRegistry loaded;

  private final Map<String, Class<?>> byName = new TreeMap<>();
  private final Map<Class<?>, String> byClass = new HashMap<>();
  private final Map<String, Class<?>> formerly = new HashMap<>();

  private TypeRegistry() {}

  /** The names declared by every module on the class path (loaded once). */
  public static TypeRegistry get() {
    TypeRegistry r = loaded;
    if (r == null) {
      synchronized (TypeRegistry.class) {
        r = loaded;
        if (r == null) loaded = r = load(ServiceLoader.load(TypeNames.class, TypeNames.class.getClassLoader())
            .stream().map(ServiceLoader.Provider::get).toList());
      }
    }
    return r;
  }

  /** A registry of exactly these modules' names; two names for one type or one name for two types fail. */
  static TypeRegistry load(List<TypeNames> modules) {
    TypeRegistry r = new TypeRegistry();
    for (TypeNames m : modules) {
      m.declare(new TypeNames.Declarations() {
        @Override
        public TypeNames.Declarations add(String name, Class<?> type, String... former) {
          r.add(m, name, type, former);
          return this;
        }
      });
    }
    return r;
  }

  private void add(TypeNames module, String name, Class<?> type, String... former) {
    String who = module.getClass().getName();
    if (name == null || !name.matches(NAME)) throw new IllegalStateException(who + ": bad type name '" + name + "'");
    Class<?> other = byName.putIfAbsent(name, type);
    if (other != null && other != type) {
      throw new IllegalStateException(who + ": type name " + name + " is taken by " + other.getName());
    }
    String before = byClass.putIfAbsent(type, name);
    if (before != null && !before.equals(name)) {
      throw new IllegalStateException(who + ": " + type.getName() + " is named " + before + " already");
    }
    for (String f : former) {
      Class<?> was = formerly.putIfAbsent(f, type);
      if (was != null && was != type) throw new IllegalStateException(who + ": former id " + f + " is taken");
    }
  }

  /** The name values of {@code type} are written as, or null if it has none. */
  public String nameOf(Class<?> type) {
    return byClass.get(type);
  }

  /** The type a name (or a former id) stands for, or null if it is not allowed. */
  public Class<?> typeOf(String id) {
    Class<?> t = byName.get(id);
    return t != null ? t : formerly.get(id);
  }

  /** Every former id (a class name of journals from before names) and the type it is read as. */
  public Map<String, Class<?>> formerIds() {
    return Collections.unmodifiableMap(formerly);
  }

  /** Every name and its type, in name order. */
  public Map<String, Class<?>> names() {
    return Collections.unmodifiableMap(byName);
  }

  /** Writes a value's registered name; reads a name back into its type, refusing every other id. */
  public static final class Resolver extends TypeIdResolverBase {
    @Override
    public String idFromValue(Object value) {
      return idFromValueAndType(value, value.getClass());
    }

    @Override
    public String idFromValueAndType(Object value, Class<?> type) {
      String name = get().nameOf(type);
      if (name == null) {
        throw new IllegalArgumentException(type.getName() + " has no logical type name: declare it in its module's "
            + TypeNames.class.getName());
      }
      return name;
    }

    @Override
    public JavaType typeFromId(DatabindContext ctx, String id) throws IOException {
      Class<?> type = get().typeOf(id);
      if (type == null) {
        String why = "not a type name tlogsim declares (TypeNames): refused";
        if (ctx instanceof DeserializationContext d) throw d.invalidTypeIdException(_baseType, id, why);
        throw new IllegalArgumentException("type id '" + id + "': " + why);
      }
      // Typed fields are declared Object (or lists and arrays of Object): any registered type fits
      return _baseType == null ? ctx.constructType(type) : ctx.constructSpecializedType(_baseType, type);
    }

    @Override
    public String getDescForKnownTypeIds() {
      return "the type names of io.tlogsim.kernel.TypeRegistry";
    }

    @Override
    public JsonTypeInfo.Id getMechanism() {
      return JsonTypeInfo.Id.CUSTOM;
    }
  }

  /** Jackson's property type handling, reading also the {@code "@class"} property of journals from before names. */
  public static final class ResolverBuilder extends StdTypeResolverBuilder {
    @Override
    public TypeDeserializer buildTypeDeserializer(DeserializationConfig config, JavaType baseType,
        Collection<NamedType> subtypes) {
      TypeDeserializer d = super.buildTypeDeserializer(config, baseType, subtypes);
      return d instanceof AsPropertyTypeDeserializer p ? new ReadingFormerIds(p, null) : d;
    }

    @Override
    public StdTypeResolverBuilder withDefaultImpl(Class<?> defaultImpl) {
      return defaultImpl(defaultImpl);
    }
  }

  /** Takes a leading {@code "@class"} (where Jackson wrote the type id) as the id, then as {@code "@type"}. */
  static final class ReadingFormerIds extends AsPropertyTypeDeserializer {
    ReadingFormerIds(AsPropertyTypeDeserializer src, BeanProperty property) {
      super(src, property);
    }

    @Override
    public TypeDeserializer forProperty(BeanProperty prop) {
      return prop == _property ? this : new ReadingFormerIds(this, prop);
    }

    @Override
    public Object deserializeTypedFromObject(JsonParser p, DeserializationContext ctxt) throws IOException {
      if (p.currentToken() == JsonToken.START_OBJECT) p.nextToken();
      if (p.currentToken() == JsonToken.FIELD_NAME && FORMER_PROPERTY.equals(p.currentName())) {
        p.nextToken();
        String id = p.getValueAsString();
        if (id != null) return _deserializeTypedForId(p, ctxt, null, id);
      }
      return super.deserializeTypedFromObject(p, ctxt);
    }
  }
}
