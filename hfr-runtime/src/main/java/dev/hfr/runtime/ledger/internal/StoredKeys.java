package dev.hfr.runtime.ledger.internal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A Bloom filter of the (tenant, key) pairs in {@link SettledStore}: a key it has never seen is certainly not
 * there, so a new write's prepare — nearly every prepare — skips the store's read. About 1.2 bytes of heap per
 * stored record (10 bits, 7 probes: one false "maybe" in a hundred, which costs one read). Deleted records stay
 * in it until housekeeping builds a new one from the store; a "maybe" is always checked against the store.
 *
 * <p>Safe for concurrent readers and one writer: the bits are an {@link AtomicLongArray}, so a bit set before
 * a record left memory is seen by every thread that then misses the record in memory.
 */
public final class StoredKeys {

  private static final int BITS_PER_KEY = 10;
  private static final int PROBES = 7;

  private final AtomicLongArray bits;
  private final long bitCount;
  private final long capacity;
  private long added; // the writer's only

  /** A filter for up to {@code capacity} keys at its designed false-positive rate. */
  public StoredKeys(long capacity) {
    this.capacity = Math.max(1024, capacity);
    long words = Math.max(1, (this.capacity * BITS_PER_KEY + 63) / 64);
    if (words > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("a filter for " + capacity + " keys is too large");
    }
    this.bits = new AtomicLongArray((int) words);
    this.bitCount = words * 64;
  }

  /** Records that (tenant, key) is, or is about to be, in the store. One writer at a time. */
  public void add(String tenant, String key) {
    add(KeyHash.of(tenant, key));
  }

  /**
   * Records that the pair of this {@link KeyHash} is, or is about to be, in the store; returns true when the filter
   * had never seen it (the store certainly holds no row of it yet), as {@code Set.add} does. One writer at a time.
   */
  public boolean add(long keyHash) {
    long h1 = keyHash;
    long h2 = KeyHash.mix(keyHash ^ 0xC2B2AE3D27D4EB4FL) | 1;
    boolean changed = false;
    for (int i = 0; i < PROBES; i++) {
      long bit = Long.remainderUnsigned(h1 + i * h2, bitCount);
      int word = (int) (bit >>> 6);
      long mask = 1L << (bit & 63);
      long old = bits.get(word);
      if ((old & mask) == 0) {
        bits.getAndAccumulate(word, mask, (a, b) -> a | b);
        changed = true;
      }
    }
    added++;
    return changed;
  }

  /** False when (tenant, key) was never added: the store certainly does not hold it. */
  public boolean mightContain(String tenant, String key) {
    return mightContain(KeyHash.of(tenant, key));
  }

  /** False when the pair of this {@link KeyHash} was never added: the store certainly does not hold it. */
  public boolean mightContain(long keyHash) {
    long h1 = keyHash;
    long h2 = KeyHash.mix(h1 ^ 0xC2B2AE3D27D4EB4FL) | 1;
    for (int i = 0; i < PROBES; i++) {
      long bit = Long.remainderUnsigned(h1 + i * h2, bitCount);
      if ((bits.get((int) (bit >>> 6)) & (1L << (bit & 63))) == 0) {
        return false;
      }
    }
    return true;
  }

  /** Whether more keys were added than it was sized for: time to build a new one from the store. */
  public boolean full() {
    return added > capacity;
  }
}
