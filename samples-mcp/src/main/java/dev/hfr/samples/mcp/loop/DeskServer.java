package dev.hfr.samples.mcp.loop;

import dev.hfr.mcp.McpMetaKeys;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The MCP tools of the loop's shop, as a server offers them, with the server's own count of what it did per
 * order reference: {@code search} (read-only), {@code create_order} (a write, reconciled by {@code find_order},
 * which answers {@code {"found": true|false}}), {@code charge} (idempotent: a repeated {@code _meta} idempotency key
 * gets the first answer and charges nothing) and {@code send_receipt} (destructive).
 */
final class DeskServer {

  /** The effects counted per reference. */
  enum Effect { ORDER, CHARGE, RECEIPT }

  private final Map<Effect, Map<String, Integer>> done = new EnumMap<>(Effect.class);
  private final Map<String, Map<String, Object>> chargesByKey = new ConcurrentHashMap<>();

  DeskServer() {
    for (Effect e : Effect.values()) {
      done.put(e, new HashMap<>());
    }
  }

  /** The configuration an operator writes for these tools: the risks HFR may rely on, and the reconcile tool. */
  // tag::config[]
  static final String MCP_CONFIG = """
      mcp:
        servers:
          desk:
            tools:
              search: {risk: R0}
              create_order:
                risk: R2
                reconcile: {tool: find_order, arguments: {reference: reference}, found_at: /found}
              find_order: {risk: R0}
              charge: {risk: R1}
              # send_receipt is not listed: R3 by default, whatever its hints say
      """;
  // end::config[]

  synchronized int duplicates(Effect effect) {
    return done.get(effect).values().stream().mapToInt(n -> n - 1).sum();
  }

  List<McpServerFeatures.SyncToolSpecification> tools() {
    return List.of(
        tool("search", new McpSchema.ToolAnnotations("Search", true, false, true, false, null), List.of("sku"),
            (args, meta) -> Map.of("sku", args.get("sku"), "price_cents", 500 + Math.floorMod(String.valueOf(args.get("sku")).hashCode(), 5000))),
        tool("create_order", new McpSchema.ToolAnnotations("Create an order", false, false, false, false, null),
            List.of("reference", "sku", "quantity"), (args, meta) -> Map.of("order", count(Effect.ORDER, args))),
        tool("find_order", new McpSchema.ToolAnnotations("Find an order", true, false, true, false, null), List.of("reference"),
            (args, meta) -> Map.of("found", exists(Effect.ORDER, String.valueOf(args.get("reference"))))),
        tool("charge", new McpSchema.ToolAnnotations("Charge", false, false, true, false, null), List.of("reference", "cents"),
            (args, meta) -> {
              Object key = meta == null ? null : meta.get(McpMetaKeys.IDEMPOTENCY_KEY);
              Function<String, Map<String, Object>> charge = k -> Map.of("charge", count(Effect.CHARGE, args));
              return key == null ? charge.apply(null) : chargesByKey.computeIfAbsent(String.valueOf(key), charge);
            }),
        tool("send_receipt", new McpSchema.ToolAnnotations("Send the receipt", false, true, false, true, null),
            List.of("reference", "email"), (args, meta) -> Map.of("receipt", count(Effect.RECEIPT, args))));
  }

  private synchronized String count(Effect effect, Map<String, Object> args) {
    String reference = String.valueOf(args.get("reference"));
    done.get(effect).merge(reference, 1, Integer::sum);
    return reference;
  }

  private synchronized boolean exists(Effect effect, String reference) {
    return done.get(effect).containsKey(reference);
  }

  private interface Body {
    Map<String, Object> run(Map<String, Object> args, Map<String, Object> meta);
  }

  private static McpServerFeatures.SyncToolSpecification tool(String name, McpSchema.ToolAnnotations hints,
      List<String> params, Body body) {
    Map<String, Object> properties = new HashMap<>();
    params.forEach(p -> properties.put(p, Map.of("type", p.equals("quantity") || p.equals("cents") ? "integer" : "string")));
    return McpServerFeatures.SyncToolSpecification.builder()
        .tool(McpSchema.Tool.builder(name, Map.of("type", "object", "properties", properties)).description(name)
            .annotations(hints).build())
        .callHandler((exchange, request) -> {
          Map<String, Object> out = body.run(request.arguments() == null ? Map.of() : request.arguments(), request.meta());
          return McpSchema.CallToolResult.builder().structuredContent(out).addTextContent(out.toString()).build();
        })
        .build();
  }
}
