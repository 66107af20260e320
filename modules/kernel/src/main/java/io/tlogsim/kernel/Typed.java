package io.tlogsim.kernel;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.annotation.JsonTypeIdResolver;
import com.fasterxml.jackson.databind.annotation.JsonTypeResolver;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a field typed {@code Object} (or a list or array of them) that is persisted or sent: each value travels with the
 * logical name its module declared ({@link TypeNames}) in the property {@code "@type"}, and reading builds only a type
 * of {@link TypeRegistry}; anything else, a JDK class above all, is refused. Journals written before logical names
 * (Java class names under {@code "@class"}) are read through the names' {@code formerly}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.ANNOTATION_TYPE, ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
@JacksonAnnotationsInside
@JsonTypeInfo(use = JsonTypeInfo.Id.CUSTOM, include = JsonTypeInfo.As.PROPERTY, property = TypeRegistry.PROPERTY)
@JsonTypeIdResolver(TypeRegistry.Resolver.class)
@JsonTypeResolver(TypeRegistry.ResolverBuilder.class)
public @interface Typed {}
