package dev.hfr.runtime.telemetry;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A bounded queue for many producers and one consumer that never blocks and never takes a lock: an array
 * ring whose producers claim a slot with one compare-and-set on the tail and publish the element with one
 * store, and whose consumer takes an element when its slot is no longer empty (the layout of JCTools'
 * {@code MpscArrayQueue}). A slot holds nothing but the element, so a ring sized for long bursts costs one
 * reference per slot (4 MiB for a million events with compressed references). When the ring is full,
 * {@link #offer} answers {@code false} at once.
 */
final class EventQueue<E> {

  private final int mask;
  private final AtomicReferenceArray<E> slots;
  private final AtomicLong tail = new AtomicLong();
  /**
   * A position below which producers may claim without reading {@link #head}: the head a producer last
   * read plus the capacity. Producers share it; a stale value only makes one of them read the head again.
   */
  private volatile long producerLimit;
  /** Written by the consumer only (once per drain); volatile so that producers and flushes may read it. */
  private volatile long head;

  /** A ring of {@code capacity} slots, rounded up to a power of two. */
  EventQueue(int capacity) {
    if (capacity < 2 || capacity > (1 << 30)) {
      throw new IllegalArgumentException("capacity must be in [2, 2^30], was " + capacity);
    }
    int size = Integer.highestOneBit(capacity - 1) << 1;
    this.mask = size - 1;
    this.slots = new AtomicReferenceArray<>(size);
    this.producerLimit = size;
  }

  int capacity() {
    return mask + 1;
  }

  /** Adds {@code e} if there is room; never waits. */
  boolean offer(E e) {
    long limit = producerLimit;
    long pos = tail.get();
    while (true) {
      if (pos >= limit) {
        // The slot a lap ahead is free once the consumer has moved past it (it empties a slot before it
        // publishes its head), so the head bounds what may be claimed.
        limit = head + mask + 1;
        if (pos >= limit) {
          return false; // full
        }
        producerLimit = limit;
      }
      long witnessed = tail.compareAndExchange(pos, pos + 1);
      if (witnessed == pos) {
        // A volatile store, not a release: the caller then reads the writer's "sleeping" flag, and that
        // read must not move before this store, or a writer going to sleep could miss the element.
        slots.set((int) pos & mask, e);
        return true;
      }
      pos = witnessed;
    }
  }

  /**
   * Moves up to {@code max} of the oldest elements into {@code into}, from index 0, and returns how many;
   * the consumer's position is published once for all of them. Stops at a slot claimed but not yet
   * published (the next drain takes it). Called by the one consumer only.
   */
  int drain(E[] into, int max) {
    long pos = head;
    int n = 0;
    while (n < max) {
      int index = (int) (pos + n) & mask;
      E e = slots.getAcquire(index);
      if (e == null) {
        break;
      }
      into[n] = e;
      slots.setPlain(index, null); // published by the volatile store of the head below
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
    return slots.get((int) head & mask) == null;
  }
}
