package dev.hfr.mcp.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML document as a tree that remembers where each value and each key stood, so a configuration error
 * can name file, line, column and key. Only what a configuration needs: mappings, lists and scalars.
 */
public final class YamlTree {

  private static final YAMLFactory FACTORY = new YAMLFactory();

  /** What a node holds. */
  public enum Kind { MAP, LIST, SCALAR, NULL }

  public final Kind kind;
  /** The dotted path of the node, e.g. {@code mcp.servers.tracker.trusted}. */
  public final String path;
  public final int line;
  public final int column;
  /** Where the key naming this node stood (the value's place for list items and the root). */
  public final int keyLine;
  public final int keyColumn;
  /** The scalar's text, {@code null} for other kinds. */
  public final String text;
  /** The scalar's token (string, number, boolean), {@code null} for other kinds. */
  public final JsonToken token;
  private final Map<String, YamlTree> entries;
  private final List<YamlTree> items;

  private YamlTree(Kind kind, String path, JsonLocation at, JsonLocation keyAt, String text, JsonToken token,
      Map<String, YamlTree> entries, List<YamlTree> items) {
    this.kind = kind;
    this.path = path;
    this.line = at.getLineNr();
    this.column = at.getColumnNr();
    this.keyLine = keyAt.getLineNr();
    this.keyColumn = keyAt.getColumnNr();
    this.text = text;
    this.token = token;
    this.entries = entries;
    this.items = items;
  }

  /**
   * Reads {@code yaml}.
   *
   * @throws IOException when the text is not YAML; its location says where
   */
  public static YamlTree read(String yaml) throws IOException {
    try (JsonParser p = FACTORY.createParser(yaml)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        return new YamlTree(Kind.NULL, "", JsonLocation.NA, JsonLocation.NA, null, null, Map.of(), List.of());
      }
      return value(p, "", p.currentTokenLocation());
    }
  }

  private static YamlTree value(JsonParser p, String path, JsonLocation keyAt) throws IOException {
    JsonLocation at = p.currentTokenLocation();
    JsonToken t = p.currentToken();
    if (t == JsonToken.START_OBJECT) {
      Map<String, YamlTree> entries = new LinkedHashMap<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        JsonLocation k = p.currentTokenLocation();
        p.nextToken();
        entries.put(key, value(p, path.isEmpty() ? key : path + "." + key, k));
      }
      return new YamlTree(Kind.MAP, path, at, keyAt, null, null, entries, List.of());
    }
    if (t == JsonToken.START_ARRAY) {
      List<YamlTree> items = new ArrayList<>();
      int i = 0;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        items.add(value(p, path + "[" + i++ + "]", p.currentTokenLocation()));
      }
      return new YamlTree(Kind.LIST, path, at, keyAt, null, null, Map.of(), items);
    }
    if (t == JsonToken.VALUE_NULL) {
      return new YamlTree(Kind.NULL, path, at, keyAt, null, t, Map.of(), List.of());
    }
    return new YamlTree(Kind.SCALAR, path, at, keyAt, p.getText(), t, Map.of(), List.of());
  }

  /** The entries of a mapping, in file order (empty for other kinds). */
  public Map<String, YamlTree> entries() {
    return entries;
  }

  /** The entry {@code key} of a mapping, or {@code null}. */
  public YamlTree get(String key) {
    return entries.get(key);
  }

  /** The items of a list (empty for other kinds). */
  public List<YamlTree> items() {
    return items;
  }

  /** The node as a user would recognise it in an error message. */
  public String describe() {
    return switch (kind) {
      case MAP -> "a mapping";
      case LIST -> "a list";
      case NULL -> "nothing";
      case SCALAR -> token == JsonToken.VALUE_STRING ? "\"" + text + "\"" : text;
    };
  }
}
