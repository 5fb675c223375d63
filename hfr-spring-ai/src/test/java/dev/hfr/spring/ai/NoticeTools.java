package dev.hfr.spring.ai;

import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.io.UncheckedIOException;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.ai.tool.annotation.Tool;

/** Spring AI tools that e-mail a customer (R3): a receipt, and a refund note that needs a person's approval. */
public class NoticeTools {

  /** What the mail provider really sent, in order. */
  final List<String> sent = new CopyOnWriteArrayList<>();
  /** The next send goes out, and then its answer is lost (a timeout). */
  final AtomicBoolean loseNextAnswer = new AtomicBoolean();

  @Tool(description = "Sends the order's receipt and returns the provider's message id")
  @SideEffect(Risk.R3)
  public String sendReceipt(String to) {
    return send("receipt to " + to);
  }

  @Tool(description = "Tells the customer their refund was granted")
  @SideEffect(value = Risk.R3, requiresApproval = true)
  public String sendRefundNote(String to) {
    return send("refund note to " + to);
  }

  private String send(String what) {
    sent.add(what);
    if (loseNextAnswer.getAndSet(false)) {
      throw new UncheckedIOException(new HttpTimeoutException("request timed out"));
    }
    return "msg-" + sent.size();
  }
}
