package dev.hfr.samples.probe;

import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** A tool class whose methods declare checked exceptions and take a caller's idempotency key. */
public class Mailbox {

  /** The keys {@link #archive} was called with, attempt by attempt. */
  final List<String> keysSeen = new ArrayList<>();

  /** Always fails with a checked exception the caller is prepared for. */
  @SideEffect(Risk.R3)
  public void send(String to) throws IOException {
    throw new FileNotFoundException("no mailbox for " + to);
  }

  /** Records the key it was given. */
  @SideEffect(Risk.R1)
  @Idempotent
  public String archive(String folder, @IdempotencyKey String key) {
    keysSeen.add(key);
    return folder + "@" + key;
  }
}
