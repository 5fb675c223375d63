package dev.hfr.runtime.telemetry;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A bounded queue for many producers and one consumer that never blocks and never takes a lock: the
 * array ring of Dmitry Vyukov's bounded MPMC queue, with a plain consumer index because only the
 * decision writer takes from it. Each slot carries a sequence number that says whose turn it is, so a producer
 * claims a slot with one compare-and-set on the tail and publishes it with one store; when the
 * ring is full, {@link #offer} answers {@code false} at once.
 */
final class EventQueue<E> {

  private final int mask;
  private final AtomicReferenceArray<E> slots;
  private final AtomicLongArray sequences;
  private final AtomicLong tail = new AtomicLong();
  /** Written by the consumer only; volatile so {@link #size()} and flushes may read it. */
  private volatile long head;

  /** A ring of {@code capacity} slots, rounded up to a power of two. */
  EventQueue(int capacity) {
    if (capacity < 2 || capacity > (1 << 30)) {
      throw new IllegalArgumentException("capacity must be in [2, 2^30], was " + capacity);
    }
    int size = Integer.highestOneBit(capacity - 1) << 1;
    this.mask = size - 1;
    this.slots = new AtomicReferenceArray<>(size);
    this.sequences = new AtomicLongArray(size);
    for (int i = 0; i < size; i++) {
      sequences.set(i, i);
    }
  }

  int capacity() {
    return mask + 1;
  }

  /** Adds {@code e} if there is room; never waits. */
  boolean offer(E e) {
    long pos = tail.get();
    while (true) {
      int index = (int) pos & mask;
      long turn = sequences.getAcquire(index) - pos;
      if (turn == 0) {
        long witnessed = tail.compareAndExchange(pos, pos + 1);
        if (witnessed == pos) {
          slots.setPlain(index, e);
          // A volatile store, not a release: the caller then reads the writer's "sleeping" flag, and that
          // read must not move before this store, or a writer going to sleep could miss the element.
          sequences.set(index, pos + 1);
          return true;
        }
        pos = witnessed;
      } else if (turn < 0) {
        return false; // the slot still holds an element a lap behind: full
      } else {
        pos = tail.get(); // another producer took this slot
      }
    }
  }

  /**
   * Moves up to {@code max} of the oldest elements into {@code into}, from index 0, and returns how many;
   * the consumer's position is published once for all of them. Called by the one consumer only.
   */
  int drain(E[] into, int max) {
    long pos = head;
    int n = 0;
    while (n < max) {
      int index = (int) (pos + n) & mask;
      if (sequences.getAcquire(index) != pos + n + 1) {
        break;
      }
      into[n] = slots.getPlain(index);
      slots.setPlain(index, null);
      sequences.setRelease(index, pos + n + mask + 1);
      n++;
    }
    if (n > 0) {
      head = pos + n;
    }
    return n;
  }

  /** How many elements were ever accepted: the position a flush waits for. */
  long accepted() {
    return tail.get();
  }

  /** How many elements the consumer has taken. */
  long taken() {
    return head;
  }

  /** Whether nothing is ready to be taken; a volatile read, paired with {@link #offer}'s volatile store. */
  boolean isEmpty() {
    long pos = head;
    return sequences.get((int) pos & mask) != pos + 1;
  }
}
