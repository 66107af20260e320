package io.tlogsim.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tlogsim.journal.StoredFact;
import io.tlogsim.journal.TraceLevel;
import io.tlogsim.kernel.EventFact;
import io.tlogsim.kernel.IntervalFact;
import io.tlogsim.kernel.TypeRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * A run's facts as a table for pandas, DuckDB or a spreadsheet ({@code tlogsim facts}): one row per fact, the same
 * leading columns for every fact (where and when) and then the fact record's own fields, named as in the record. CSV
 * has a header and the union of the chosen types' fields (empty where a type has none); JSON Lines has one object
 * per fact with its own fields only. Rows are written as they come: nothing is held but the column list.
 */
final class FactsTable {
  /** A column: its name, its type (integer, number, boolean, string, base64, json), the fact types that have it. */
  record Column(String name, String type, List<String> factTypes, String description) {}

  /** The leading columns, the same for every fact. */
  static final List<Column> LEADING = List.of(
      new Column("window", "integer", List.of(), "the kernel's synchronization window the fact was recorded in"),
      new Column("timeNs", "integer", List.of(), "simulated time of the fact, ns (exact)"),
      new Column("timeSeconds", "number", List.of(), "simulated time of the fact, s (timeNs / 1e9, exact decimal)"),
      new Column("componentId", "integer", List.of(), "the component that recorded it, by id"),
      new Column("component", "string", List.of(), "the component that recorded it, by name (e.g. log-device)"),
      new Column("type", "string", List.of(), "the fact's type, as --type names it (e.g. LogHardened)"));

  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private static final JsonFactory FACTORY = JSON.getFactory();
  private static final Map<Class<?>, RecordComponent[]> COMPONENTS = new HashMap<>();

  private FactsTable() {}

  /**
   * The fact types the modules declare (an {@link IntervalFact} or an {@link EventFact} under a logical name), by
   * name: what {@code --type} accepts.
   */
  static Map<String, Class<?>> factTypes() {
    Map<String, Class<?>> out = new TreeMap<>();
    TypeRegistry.get().names().forEach((name, type) -> {
      if (type.isRecord() && (IntervalFact.class.isAssignableFrom(type) || EventFact.class.isAssignableFrom(type))) {
        out.put(name, type);
      }
    });
    return out;
  }

  /** summary.json's {@code journal}: the trace level and how many facts the journal keeps of the run. */
  static Map<String, Object> journalFigures(TraceLevel trace, long facts) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("trace", trace.option());
    m.put("facts", facts);
    return m;
  }

  /** Leading columns, then each type's fields in record order, a field shared by types once (first type's place). */
  static List<Column> columns(Map<String, Class<?>> types) {
    Map<String, String> typeOf = new LinkedHashMap<>();
    Map<String, List<String>> havers = new LinkedHashMap<>();
    for (Map.Entry<String, Class<?>> t : types.entrySet()) {
      for (RecordComponent rc : components(t.getValue())) {
        String name = columnName(rc.getName());
        String type = type(rc.getType());
        typeOf.merge(name, type, FactsTable::widened);
        havers.computeIfAbsent(name, k -> new ArrayList<>()).add(t.getKey());
      }
    }
    List<Column> out = new ArrayList<>(LEADING);
    typeOf.forEach((name, type) -> out.add(new Column(name, type, List.copyOf(havers.get(name)), "")));
    return out;
  }

  /** A field named like a leading column is renamed, so that no column is given twice. */
  private static String columnName(String field) {
    for (Column c : LEADING) if (c.name().equals(field)) return "fact_" + field;
    return field;
  }

  private static String widened(String a, String b) {
    if (a.equals(b)) return a;
    if ((a.equals("integer") || a.equals("number")) && (b.equals("integer") || b.equals("number"))) return "number";
    return "string";
  }

  private static String type(Class<?> c) {
    if (c == long.class || c == int.class || c == short.class || c == byte.class || c == Long.class
        || c == Integer.class || c == Short.class || c == Byte.class) {
      return "integer";
    }
    if (c == double.class || c == float.class || c == Double.class || c == Float.class) return "number";
    if (c == boolean.class || c == Boolean.class) return "boolean";
    if (c == String.class || c == char.class || c == Character.class || c.isEnum()) return "string";
    if (c == byte[].class) return "base64";
    return "json";
  }

  private static synchronized RecordComponent[] components(Class<?> c) {
    return COMPONENTS.computeIfAbsent(c, k -> k.isRecord() ? k.getRecordComponents() : new RecordComponent[0]);
  }

  /** "0.05" for 50,000,000 ns: seconds as an exact decimal, no exponent. */
  static String seconds(long nanos) {
    String s = BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString();
    return s;
  }

  /** Writes rows in one format; {@link #close} flushes. */
  abstract static sealed class Rows implements AutoCloseable permits Csv, JsonLines {
    final Map<String, Class<?>> types;
    final IntFunction<String> componentName;
    final Writer out;
    final Map<Class<?>, String> nameOf = new HashMap<>();

    Rows(Map<String, Class<?>> types, IntFunction<String> componentName, Writer out) {
      this.types = types;
      this.componentName = componentName;
      this.out = out;
      types.forEach((n, c) -> nameOf.put(c, n));
    }

    /** The fact's type name: its logical name, or its class's simple name for a type outside the declared facts. */
    String typeName(Object fact) {
      String n = nameOf.get(fact.getClass());
      if (n != null) return n;
      String logical = TypeRegistry.get().nameOf(fact.getClass());
      return logical != null ? logical : fact.getClass().getSimpleName();
    }

    abstract void row(StoredFact f);

    @Override
    public void close() {
      try {
        out.flush();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The fact's fields as values: a record's components by name (renamed as the columns are), else none. */
  static Map<String, Object> fields(Object fact) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (RecordComponent rc : components(fact.getClass())) {
      try {
        m.put(columnName(rc.getName()), rc.getAccessor().invoke(fact));
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("fact " + fact.getClass().getName() + ": field " + rc.getName()
            + " cannot be read", e);
      }
    }
    return m;
  }

  /** CSV (RFC 4180) with a header: the leading columns and the union of the chosen types' fields. */
  static final class Csv extends Rows {
    private final List<Column> columns;
    private final Map<String, Integer> index = new HashMap<>();
    private final String[] cells;

    Csv(Map<String, Class<?>> types, IntFunction<String> componentName, Writer out) {
      super(types, componentName, out);
      this.columns = columns(types);
      for (int i = 0; i < columns.size(); i++) index.put(columns.get(i).name(), i);
      this.cells = new String[columns.size()];
      List<String> header = new ArrayList<>();
      for (Column c : columns) header.add(c.name());
      line(header.toArray(String[]::new));
    }

    @Override
    void row(StoredFact f) {
      java.util.Arrays.fill(cells, "");
      cells[0] = Long.toString(f.window());
      cells[1] = Long.toString(f.time());
      cells[2] = seconds(f.time());
      cells[3] = Integer.toString(f.component());
      cells[4] = componentName.apply(f.component());
      cells[5] = typeName(f.fact());
      for (Map.Entry<String, Object> e : fields(f.fact()).entrySet()) {
        Integer i = index.get(e.getKey());
        if (i != null) cells[i] = cell(e.getValue());
      }
      line(cells);
    }

    private static String cell(Object v) {
      if (v == null) return "";
      if (v instanceof byte[] b) return Base64.getEncoder().encodeToString(b);
      if (v instanceof Number || v instanceof Boolean || v instanceof String || v instanceof Enum<?>
          || v instanceof Character) {
        return v instanceof Enum<?> e ? e.name() : v.toString();
      }
      try {
        return JSON.writeValueAsString(v);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private void line(String[] values) {
      try {
        for (int i = 0; i < values.length; i++) {
          if (i > 0) out.write(',');
          out.write(quoted(values[i]));
        }
        out.write('\n');
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    static String quoted(String s) {
      if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) return s;
      return '"' + s.replace("\"", "\"\"") + '"';
    }
  }

  /** JSON Lines: one object per fact, the leading columns then the fact's own fields (byte arrays in base64). */
  static final class JsonLines extends Rows {
    private final JsonGenerator g;

    JsonLines(Map<String, Class<?>> types, IntFunction<String> componentName, Writer out) {
      super(types, componentName, out);
      try {
        this.g = FACTORY.createGenerator(out);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      g.setCodec(JSON);
      g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      g.setRootValueSeparator(null); // one object per line, no space before the next
    }

    @Override
    void row(StoredFact f) {
      try {
        g.writeStartObject();
        g.writeNumberField("window", f.window());
        g.writeNumberField("timeNs", f.time());
        g.writeFieldName("timeSeconds");
        g.writeNumber(seconds(f.time()));
        g.writeNumberField("componentId", f.component());
        g.writeStringField("component", componentName.apply(f.component()));
        g.writeStringField("type", typeName(f.fact()));
        for (Map.Entry<String, Object> e : fields(f.fact()).entrySet()) {
          g.writeFieldName(e.getKey());
          g.writeObject(e.getValue());
        }
        g.writeEndObject();
        g.flush();
        out.write('\n');
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void close() {
      try {
        g.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      super.close();
    }
  }
}
