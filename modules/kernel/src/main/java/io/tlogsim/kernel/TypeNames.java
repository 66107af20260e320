package io.tlogsim.kernel;

/**
 * The logical type names of one module's values that the kernel keeps or sends without knowing their type: model
 * states ({@link SimComponent#snapshot}), event payloads, facts ({@link Context#record}) and results. In a
 * {@link Typed} field such a value is written with its name, never its Java class, and only a type named here is
 * built when a journal row or a peer's message is read: together the modules' lists are the allow-list of
 * {@link TypeRegistry}.
 *
 * <p>A module lists its names in one class, named in its {@code META-INF/services/io.tlogsim.kernel.TypeNames}. A name
 * is stored in journals: once released it never changes, whatever the class is called or wherever it moves.
 */
public interface TypeNames {
  /** Declares this module's names. */
  void declare(Declarations names);

  /** Where a module declares its names. */
  interface Declarations {
    /**
     * Values of {@code type} are written as {@code name}. {@code formerly}: ids that earlier versions wrote for the
     * same values (the Java class names of journals from before logical names), read but never written.
     */
    Declarations add(String name, Class<?> type, String... formerly);
  }
}
