package dev.hfr.runtime.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * A YAML document as a tree that remembers where every key and value was (Jackson's {@link JsonLocation}),
 * so that validation can point at the line and column of the bad value. Jackson's own {@code JsonNode}
 * forgets locations, hence this small tree. Immutable once read. A module's {@link ConfigSection} reads its
 * section of the file as this tree, and reports problems at its nodes.
 */
public final class YamlNode {

  /** What a node holds; a {@code null} value is a scalar ({@link #isNull()}). */
  public enum Kind { MAP, LIST, SCALAR }

  private static final YAMLFactory FACTORY = new YAMLFactory();

  final Kind kind;
  final String path;
  final int line;
  final int column;
  /** Where the key of this node was, for "unknown key" errors; the node's own place for list items. */
  final int keyLine;
  final int keyColumn;
  private final Map<String, YamlNode> entries;
  private final List<YamlNode> items;
  final JsonToken token;
  final String text;

  private YamlNode(Kind kind, String path, JsonLocation at, JsonLocation keyAt, Map<String, YamlNode> entries,
      List<YamlNode> items, JsonToken token, String text) {
    this.kind = kind;
    this.path = path;
    this.line = at.getLineNr();
    this.column = at.getColumnNr();
    this.keyLine = keyAt.getLineNr();
    this.keyColumn = keyAt.getColumnNr();
    this.entries = entries;
    this.items = items;
    this.token = token;
    this.text = text;
  }

  /** What the node holds. */
  public Kind kind() { return kind; }

  /** The node's dotted key from the root, e.g. {@code hfr.mcp.servers.tracker}. */
  public String path() { return path; }

  /** The line of the value. */
  public int line() { return line; }

  /** The column of the value. */
  public int column() { return column; }

  /** A scalar's text ({@code "null"} for a null), {@code null} for mappings and lists. */
  public String text() { return text; }

  /** A scalar's token (string, number, boolean, null), {@code null} for mappings and lists. */
  public JsonToken token() { return token; }

  /** Whether this is a scalar written as a string (quoted or plain text, not a number or a boolean). */
  public boolean isString() {
    return kind == Kind.SCALAR && token == JsonToken.VALUE_STRING;
  }

  /** Entries of a map, in file order. */
  public Map<String, YamlNode> entries() {
    return entries == null ? Map.of() : Collections.unmodifiableMap(entries);
  }

  /** A map entry, or {@code null}. */
  public YamlNode get(String key) {
    return entries == null ? null : entries.get(key);
  }

  /** Items of a list. */
  public List<YamlNode> items() {
    return items == null ? List.of() : Collections.unmodifiableList(items);
  }

  /** Whether the value is YAML's null ({@code key:} with nothing after it, {@code ~}, {@code null}). */
  public boolean isNull() {
    return kind == Kind.SCALAR && token == JsonToken.VALUE_NULL;
  }

  /** How a value looks in an error message (a long one cut to its start and its length). */
  public String describe() {
    switch (kind) {
      case MAP:
        return "a mapping";
      case LIST:
        return "a list";
      default:
        String safe = SecretValues.shown(path, text);
        String shown = safe.length() > 80 ? safe.substring(0, 60) + "... (" + safe.length() + " characters)" : safe;
        return token == JsonToken.VALUE_STRING ? '"' + shown + '"' : shown;
    }
  }

  /** The longest key or value accepted: nothing in an HFR configuration comes near it. */
  static final int MAX_VALUE_CHARS = 4096;

  /** The dotted path of a child key; keys that are not plain words are quoted: {@code tools["A.b"]}. */
  static String child(String path, String key) {
    boolean plain = !key.isEmpty() && key.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_' || c == '-');
    if (!plain) {
      return path + "[\"" + key + "\"]";
    }
    return path.isEmpty() ? key : path + "." + key;
  }

  /**
   * Reads a document; syntax errors and duplicate keys become problems. Returns {@code null} when the
   * document could not be read at all.
   */
  static YamlNode read(String yaml, String source, List<HfrConfigException.Problem> problems) {
    return read(yaml, source, problems, Placeholders.ENVIRONMENT);
  }

  /** {@link #read(String, String, List)}, with {@code ${NAME}} placeholders looked up in {@code variables}. */
  static YamlNode read(String yaml, String source, List<HfrConfigException.Problem> problems, UnaryOperator<String> variables) {
    try (JsonParser p = FACTORY.createParser(yaml)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        problems.add(new HfrConfigException.Problem(source, 1, 1, "hfr",
            "the file is empty; it needs a top-level `hfr:` mapping (see docs/CONFIG.md)"));
        return null;
      }
      YamlNode root = readValue(p, "", p.currentTokenLocation(), source, problems, variables);
      if (p.nextToken() != null) {
        JsonLocation at = p.currentTokenLocation();
        problems.add(new HfrConfigException.Problem(source, at.getLineNr(), at.getColumnNr(), "(document)",
            "a configuration is one YAML document; remove the second one (after `---`) or merge it into the first"));
      }
      return root;
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      int line = at != null ? at.getLineNr() : 0;
      int column = at != null ? at.getColumnNr() : 0;
      String why = e.getOriginalMessage();
      if (e.getCause() instanceof MarkedYAMLException) {
        // SnakeYAML knows exactly where the problem is; Jackson's location points at the last token read
        MarkedYAMLException marked = (MarkedYAMLException) e.getCause();
        if (marked.getProblemMark() != null) {
          line = marked.getProblemMark().getLine() + 1;
          column = marked.getProblemMark().getColumn() + 1;
        }
        why = marked.getProblem() != null ? marked.getProblem() : why;
      }
      problems.add(new HfrConfigException.Problem(source, line, column, "(syntax)", "not valid YAML: " + why));
      return null;
    } catch (IOException e) {
      problems.add(new HfrConfigException.Problem(source, 0, 0, "(syntax)", "could not be read: " + e.getMessage()));
      return null;
    }
  }

  /** The token YAML would give {@code text} written plainly: what a value that is one placeholder becomes. */
  private static JsonToken scalarToken(String text) {
    String v = text.trim();
    if (v.matches("[-+]?[0-9][0-9_]*")) {
      return JsonToken.VALUE_NUMBER_INT;
    }
    if (v.matches("[-+]?([0-9][0-9_]*)?\\.[0-9]+([eE][-+]?[0-9]+)?")) {
      return JsonToken.VALUE_NUMBER_FLOAT;
    }
    if (v.equalsIgnoreCase("true")) {
      return JsonToken.VALUE_TRUE;
    }
    if (v.equalsIgnoreCase("false")) {
      return JsonToken.VALUE_FALSE;
    }
    return JsonToken.VALUE_STRING;
  }

  private static YamlNode readValue(JsonParser p, String path, JsonLocation keyAt, String source,
      List<HfrConfigException.Problem> problems, UnaryOperator<String> variables) throws IOException {
    JsonLocation at = p.currentTokenLocation();
    JsonToken t = p.currentToken();
    if (t == JsonToken.START_OBJECT) {
      Map<String, YamlNode> entries = new LinkedHashMap<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        JsonLocation childKeyAt = p.currentTokenLocation();
        if (key.length() > MAX_VALUE_CHARS) {
          problems.add(new HfrConfigException.Problem(source, childKeyAt.getLineNr(), childKeyAt.getColumnNr(), path.isEmpty() ? "(root)" : path,
              "a key of " + key.length() + " characters; keys in an HFR configuration are at most " + MAX_VALUE_CHARS));
          key = key.substring(0, 60) + "...";
        }
        p.nextToken();
        String childPath = child(path, key);
        if ("<<".equals(key)) {
          problems.add(new HfrConfigException.Problem(source, childKeyAt.getLineNr(), childKeyAt.getColumnNr(), childPath,
              "YAML merge keys (<<) are not supported here; write the keys out"));
        }
        YamlNode value = readValue(p, childPath, childKeyAt, source, problems, variables);
        if (entries.containsKey(key)) {
          problems.add(new HfrConfigException.Problem(source, childKeyAt.getLineNr(), childKeyAt.getColumnNr(), childPath,
              "duplicate key (first at line " + entries.get(key).keyLine + "); keep one of them"));
        } else {
          entries.put(key, value);
        }
      }
      return new YamlNode(Kind.MAP, path, at, keyAt, entries, null, null, null);
    }
    if (t == JsonToken.START_ARRAY) {
      List<YamlNode> items = new ArrayList<>();
      int i = 0;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        items.add(readValue(p, path + "[" + i++ + "]", p.currentTokenLocation(), source, problems, variables));
      }
      return new YamlNode(Kind.LIST, path, at, keyAt, null, items, null, null);
    }
    if (p instanceof YAMLParser && ((YAMLParser) p).isCurrentAlias()) {
      problems.add(new HfrConfigException.Problem(source, at.getLineNr(), at.getColumnNr(), path.isEmpty() ? "(root)" : path,
          "YAML aliases (*" + p.getText() + ") are not supported here; write the values out"));
    }
    String text = t == JsonToken.VALUE_NULL ? "null" : p.getText();
    if (t == JsonToken.VALUE_STRING && Placeholders.present(text)) {
      List<String> missing = new ArrayList<>();
      boolean whole = Placeholders.whole(text);
      text = Placeholders.substitute(text, variables, missing);
      for (String name : missing) {
        problems.add(new HfrConfigException.Problem(source, at.getLineNr(), at.getColumnNr(), path.isEmpty() ? "(root)" : path,
            "${" + name + "} has no value: set the environment variable or system property " + name
                + ", or give a default (${" + name + ":value})"));
      }
      if (whole && missing.isEmpty()) {
        t = scalarToken(text);
      }
    }
    if (text.length() > MAX_VALUE_CHARS) {
      problems.add(new HfrConfigException.Problem(source, at.getLineNr(), at.getColumnNr(), path.isEmpty() ? "(root)" : path,
          "a value of " + text.length() + " characters; values in an HFR configuration are at most " + MAX_VALUE_CHARS));
      text = text.substring(0, 60);
    }
    return new YamlNode(Kind.SCALAR, path, at, keyAt, null, null, t, text);
  }
}
