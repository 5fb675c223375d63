package dev.hfr.mcp.testing;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/**
 * A real MCP server on 127.0.0.1: the SDK's streamable HTTP servlet on an embedded Tomcat, with the
 * {@link FaultPlan}'s faults injected on the wire (a filter, and a {@link DroppingProxy} in front) and in
 * the tool handlers. Clients connect to {@link #url()}; the proxy forwards everything else untouched.
 */
public final class FaultyMcpServer implements AutoCloseable {

  /** The MCP endpoint path. */
  public static final String ENDPOINT = "/mcp";

  /**
   * Tomcat's own logging (start, stop, leak checks of its class loader) says nothing about MCP; only
   * severe problems are kept. Held here so the level outlives a garbage collection.
   */
  private static final java.util.logging.Logger TOMCAT_LOG = quiet(java.util.logging.Logger.getLogger("org.apache"));

  private static java.util.logging.Logger quiet(java.util.logging.Logger log) {
    log.setLevel(java.util.logging.Level.SEVERE);
    return log;
  }

  private final Tomcat tomcat;
  private final HttpServletStreamableServerTransportProvider transport;
  private final McpSyncServer server;
  private final DroppingProxy proxy;
  private final FaultPlan plan;
  private final Path baseDir;

  private FaultyMcpServer(List<McpServerFeatures.SyncToolSpecification> tools, FaultPlan plan) throws Exception {
    this.plan = plan;
    this.transport = HttpServletStreamableServerTransportProvider.builder().mcpEndpoint(ENDPOINT).build();
    this.server = McpServer.sync(transport)
        .serverInfo("hfr-test-server", "1.0.0")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .tools(tools.stream().map(this::withFaults).toList())
        .build();
    this.baseDir = Files.createTempDirectory("hfr-mcp-tomcat");
    this.tomcat = new Tomcat();
    tomcat.setBaseDir(baseDir.toString());
    Connector connector = new Connector();
    connector.setPort(0);
    connector.setProperty("address", "127.0.0.1");
    tomcat.getService().addConnector(connector);
    tomcat.setConnector(connector);
    Context context = tomcat.addContext("", baseDir.toString());
    Wrapper wrapper = context.createWrapper();
    wrapper.setName("mcp");
    wrapper.setServlet(transport);
    wrapper.setAsyncSupported(true);
    wrapper.setLoadOnStartup(1);
    context.addChild(wrapper);
    context.addServletMapping("/*", "mcp");
    FilterDef def = new FilterDef();
    def.setFilter(new FaultFilter(plan));
    def.setFilterName("faults");
    def.setAsyncSupported("true");
    context.addFilterDef(def);
    FilterMap map = new FilterMap();
    map.setFilterName("faults");
    map.addURLPattern("/*");
    context.addFilterMap(map);
    tomcat.start();
    this.proxy = new DroppingProxy(connector.getLocalPort());
  }

  /** Starts a server offering {@code tools}, faults drawn from {@code plan}. */
  public static FaultyMcpServer start(FaultPlan plan, List<McpServerFeatures.SyncToolSpecification> tools) {
    try {
      return new FaultyMcpServer(tools, plan);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new IllegalStateException("the loopback MCP server did not start", e);
    }
  }

  /** The base URL clients use (through the dropping proxy); the endpoint is {@link #ENDPOINT}. */
  public String url() {
    return "http://127.0.0.1:" + proxy.port();
  }

  public FaultPlan faults() {
    return plan;
  }

  /** Connections dropped after the tool committed. */
  public long dropped() {
    return proxy.dropped();
  }

  /** The SDK server, e.g. to add a tool and notify the clients. */
  public McpSyncServer sdkServer() {
    return server;
  }

  /** Wraps a tool's handler so that the plan's handler faults happen in it. */
  public McpServerFeatures.SyncToolSpecification withFaults(McpServerFeatures.SyncToolSpecification spec) {
    String name = spec.tool().name();
    return McpServerFeatures.SyncToolSpecification.builder()
        .tool(spec.tool())
        .callHandler((exchange, request) -> {
          McpFault fault = plan.forHandler(name);
          if (fault instanceof McpFault.ErrorResult e) {
            return McpSchema.CallToolResult.builder().isError(true).addTextContent(e.text()).build();
          }
          if (fault instanceof McpFault.RpcError e) {
            throw McpError.builder(e.code()).message(e.message()).build();
          }
          McpSchema.CallToolResult result = spec.callHandler().apply(exchange, request);
          if (fault instanceof McpFault.SlowAfterCommit s) {
            try {
              Thread.sleep(s.millis());
            } catch (InterruptedException interrupted) {
              Thread.currentThread().interrupt();
            }
          }
          return result;
        })
        .build();
  }

  @Override
  public void close() throws IOException {
    proxy.close();
    server.closeGracefully();
    try {
      tomcat.stop();
      tomcat.destroy();
    } catch (LifecycleException e) {
      throw new IllegalStateException("Tomcat did not stop", e);
    }
  }
}
