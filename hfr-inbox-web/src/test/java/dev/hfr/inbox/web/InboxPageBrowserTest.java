package dev.hfr.inbox.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.CallAwaitingApprovalException;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.OutcomeUnknownException;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.inbox.ItemState;
import dev.hfr.runtime.ledger.Ledgers;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The inbox page in a real browser (Debian's headless chromium, driven by Selenium): a person signs in with their
 * token, sees the escalated e-mail with its evidence and redacted arguments, answers with a button, and the model's
 * next call of that e-mail gets the answer. Skipped, saying so, only where chromium is not installed
 * ({@code .ci/install-browser} installs it).
 */
class InboxPageBrowserTest {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final String TOKEN = "ana-0123456789abcdef";

  private static WebDriver browser;

  private Hfr hfr;
  private InboxServer server;
  /** What the mail provider really sent: the test's ground truth. */
  private final AtomicInteger sent = new AtomicInteger();

  private final ToolDescriptor sendReceipt = ToolDescriptor.builder("com.acme.Mail", "sendReceipt", Risk.R3)
      .parameters("to").resultType(String.class).build();
  private final ToolDescriptor sendNewsletter = ToolDescriptor.builder("com.acme.Mail", "sendNewsletter", Risk.R3)
      .parameters("to").resultType(String.class).requiresApproval(true).build();

  @BeforeAll
  static void openBrowser() {
    Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "chromium and chromium-driver are not installed: run .ci/install-browser (as root) to test the inbox page"
            + " in a real browser");
    ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
        .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu");
    ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort().build();
    browser = new ChromeDriver(service, options);
    browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(20));
  }

  @AfterAll
  static void closeBrowser() {
    if (browser != null) {
      browser.quit();
    }
  }

  @BeforeEach
  void start() {
    hfr = Hfr.builder().ledger(Ledgers.inMemory(dev.hfr.runtime.ledger.LedgerOptions.defaults())).build();
    // tag::server[]
    server = InboxServer.builder(hfr.inbox())
        .operator("ana", TOKEN)        // who may answer, and the secret they sign in with (16+ characters)
        .start();                      // 127.0.0.1 on a free port: server.uri()
    // end::server[]
    browser.manage().deleteAllCookies();
  }

  @AfterEach
  void stop() {
    server.close();
    hfr.close();
  }

  /** The model's call of a mail tool; the provider sends, then the answer is lost when {@code dropAnswer}. */
  private String call(ToolDescriptor tool, String to, boolean dropAnswer) {
    return hfr.execute(tool, new ToolInvocation<String>() {
      @Override
      public String proceed(String ledgerKey) throws Exception {
        sent.incrementAndGet();
        if (dropAnswer) {
          throw new HttpTimeoutException("request timed out");
        }
        return "sent to " + to;
      }

      @Override
      public int argumentCount() {
        return 1;
      }

      @Override
      public Object argument(int index) {
        return to;
      }
    });
  }

  private void signIn() {
    browser.get(server.uri().toString());
    assertThat(browser.getCurrentUrl()).endsWith("/login");
    browser.findElement(By.id("token")).sendKeys(TOKEN);
    submit(browser.findElement(By.id("sign-in")));
    assertThat(browser.findElement(By.id("operator")).getText()).isEqualTo("ana");
  }

  /** Clicks a form's button and waits until the browser has left the page it was on (the answer's redirect). */
  private static void submit(WebElement button) {
    WebElement page = browser.findElement(By.tagName("html"));
    button.click();
    new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> {
      try {
        page.getTagName();
        return false;
      } catch (WebDriverException gone) { // stale, or (chromium, mid-navigation) no longer in the document
        return true;
      }
    });
  }

  private WebElement item(String id) {
    return browser.findElement(By.id("item-" + id));
  }

  @Test
  @DisplayName("'it happened' clicked in the browser: the model's re-call gets the reference, and nothing is sent twice")
  void happenedInBrowser() {
    try (TaskScope conversation = hfr.openTask(TaskSpec.builder("acme", "conv-7").build())) {
      catchThrowableOfType(OutcomeUnknownException.class, () -> call(sendReceipt, "bo@example.com", true));
      String id = hfr.inbox().list().get(0).id();

      signIn();
      WebElement item = item(id);
      assertThat(item.getText()).contains("Mail.sendReceipt").contains("conv-7").contains("timeout unknown state");
      assertThat(browser.getPageSource()).doesNotContain("bo@example.com");
      item.findElement(By.tagName("summary")).click();
      assertThat(item.findElement(By.className("evidence")).getText()).contains("\"ledgerState\" : \"UNKNOWN\"");
      item.findElement(By.className("reason")).sendKeys("the provider's log shows it");
      item.findElement(By.className("result")).sendKeys("msg-7781");
      submit(item.findElement(By.className("answer-happened")));

      assertThat(browser.findElement(By.id("done")).getText()).contains("it happened");
      assertThat(browser.findElements(By.id("item-" + id))).isEmpty();
      assertThat(hfr.inbox().get(id).orElseThrow().answer().by()).isEqualTo("ana");
      assertThat(call(sendReceipt, "bo@example.com", false)).isEqualTo("msg-7781");
    }
    assertThat(sent.get()).isEqualTo(1);
  }

  @Test
  @DisplayName("filters by tool narrow the list, oldest first")
  void filters() {
    try (TaskScope conversation = hfr.openTask(TaskSpec.builder("acme", "conv-8").build())) {
      catchThrowableOfType(OutcomeUnknownException.class, () -> call(sendReceipt, "a@example.com", true));
      catchThrowableOfType(CallAwaitingApprovalException.class, () -> call(sendNewsletter, "b@example.com", false));
    }
    signIn();
    assertThat(browser.findElement(By.id("count")).getText()).startsWith("2 items");
    List<WebElement> items = browser.findElements(By.className("item"));
    assertThat(items.get(0).getText()).contains("Mail.sendReceipt");
    browser.findElement(By.id("filter-tool")).sendKeys("Mail.sendNewsletter");
    submit(browser.findElement(By.id("filter")));
    assertThat(browser.findElement(By.id("count")).getText()).startsWith("1 item");
    assertThat(browser.findElement(By.className("item")).getText()).contains("approval request");
  }

  @Test
  @DisplayName("approve in the browser: the re-call runs exactly once; a cross-site post and the API without a token are refused")
  void approveInBrowser() throws Exception {
    try (TaskScope conversation = hfr.openTask(TaskSpec.builder("acme", "conv-9").build())) {
      catchThrowableOfType(CallAwaitingApprovalException.class, () -> call(sendNewsletter, "cy@example.com", false));
      String id = hfr.inbox().list().get(0).id();
      signIn();

      var http = java.net.http.HttpClient.newHttpClient();
      String cookie = "hfr_inbox_session=" + browser.manage().getCookieNamed("hfr_inbox_session").getValue();
      var crossSite = http.send(java.net.http.HttpRequest.newBuilder(server.uri().resolve("/answer"))
          .header("Cookie", cookie).header("Origin", "http://evil.example")
          .header("Content-Type", "application/x-www-form-urlencoded")
          .POST(java.net.http.HttpRequest.BodyPublishers.ofString("id=" + id + "&answer=approve")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(crossSite.statusCode()).isEqualTo(403);
      var anonymous = http.send(java.net.http.HttpRequest.newBuilder(server.uri().resolve("/api/items/" + id + "/answer"))
          .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"answer\":\"approve\"}")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(anonymous.statusCode()).isEqualTo(401);
      assertThat(hfr.inbox().get(id).orElseThrow().state()).isEqualTo(ItemState.WAITING);

      browser.navigate().refresh();
      submit(item(id).findElement(By.className("answer-approve")));
      assertThat(browser.findElement(By.id("done")).getText()).contains("approve");

      assertThat(call(sendNewsletter, "cy@example.com", false)).isEqualTo("sent to cy@example.com");
      assertThat(call(sendNewsletter, "cy@example.com", false)).isEqualTo("sent to cy@example.com");
    }
    assertThat(sent.get()).isEqualTo(1);
  }

  @Test
  @DisplayName("20 conversations, every third e-mail's answer lost: each waiting item answered 'it happened' in the browser, and all 20 re-calls complete with 20 e-mails sent")
  void twentyConversationsAnsweredInTheBrowser() throws Exception {
    int conversations = 20;
    List<TaskScope> open = new java.util.ArrayList<>();
    int completedFirst = 0;
    for (int n = 0; n < conversations; n++) {
      TaskScope conversation = hfr.newTask(TaskSpec.builder("shop", "conv-" + n).build());
      open.add(conversation);
      int i = n;
      try (AutoCloseable bound = conversation.bindCurrentThread()) {
        try {
          call(sendReceipt, "c" + i + "@example.com", i % 3 == 0);
          completedFirst++;
        } catch (OutcomeUnknownException waitsForAPerson) {
          // the conversation stops: "a person was asked"
        }
      }
    }
    assertThat(hfr.inbox().list()).hasSize(conversations - completedFirst);

    signIn();
    int answered = 0;
    for (List<WebElement> items; !(items = browser.findElements(By.className("item"))).isEmpty(); answered++) {
      WebElement oldest = items.get(0);
      oldest.findElement(By.className("result")).sendKeys("msg-confirmed-" + answered);
      submit(oldest.findElement(By.className("answer-happened")));
      assertThat(browser.findElements(By.id("error"))).extracting(WebElement::getText).isEmpty();
      assertThat(browser.findElement(By.id("done")).getText()).contains("it happened");
    }

    int completedAfter = 0;
    for (int n = 0; n < conversations; n++) {
      try (AutoCloseable bound = open.get(n).bindCurrentThread()) {
        assertThat(call(sendReceipt, "c" + n + "@example.com", false)).startsWith(n % 3 == 0 ? "msg-confirmed-" : "sent to");
        completedAfter++;
      }
      open.get(n).close();
    }
    System.out.printf("inbox page: %d conversations; %d completed before any answer, %d answered in the browser,"
        + " %d completed after; e-mails sent %d%n", conversations, completedFirst, answered, completedAfter, sent.get());
    assertThat(answered).isEqualTo(7);
    assertThat(completedAfter).isEqualTo(conversations);
    assertThat(sent.get()).as("one e-mail per conversation, none twice").isEqualTo(conversations);
  }

  @Test
  @DisplayName("deny in the browser: the model's re-call is refused with the person's reason, nothing sent")
  void denyInBrowser() {
    try (TaskScope conversation = hfr.openTask(TaskSpec.builder("acme", "conv-10").build())) {
      catchThrowableOfType(CallAwaitingApprovalException.class, () -> call(sendNewsletter, "di@example.com", false));
      String id = hfr.inbox().list().get(0).id();
      signIn();
      item(id).findElement(By.className("reason")).sendKeys("not during the holiday freeze");
      submit(item(id).findElement(By.className("answer-deny")));
      assertThat(browser.findElement(By.id("done")).getText()).contains("deny");

      dev.hfr.runtime.CallRefusedException denied =
          catchThrowableOfType(dev.hfr.runtime.CallRefusedException.class, () -> call(sendNewsletter, "di@example.com", false));
      assertThat(dev.hfr.runtime.conversation.ModelAnswers.render(denied.outcome()))
          .contains("\"person_answer\":\"not during the holiday freeze\"");
    }
    assertThat(sent.get()).isZero();
  }
}
