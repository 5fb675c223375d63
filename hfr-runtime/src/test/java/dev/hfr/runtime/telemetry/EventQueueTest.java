package dev.hfr.runtime.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The decision log's queue")
class EventQueueTest {

  @Test
  @DisplayName("hands the writer what is queued in order, a batch at a time, around the ring and back")
  void drainsInOrder() {
    EventQueue<Integer> queue = new EventQueue<>(8);
    Integer[] batch = new Integer[5];
    List<Integer> taken = new ArrayList<>();
    int next = 0;
    for (int round = 0; round < 10; round++) {
      for (int i = 0; i < 7; i++) {
        assertThat(queue.offer(next++)).isTrue();
      }
      int n;
      while ((n = queue.drain(batch, batch.length)) > 0) {
        assertThat(n).isLessThanOrEqualTo(5);
        for (int i = 0; i < n; i++) {
          taken.add(batch[i]);
        }
      }
      assertThat(queue.isEmpty()).isTrue();
    }
    assertThat(taken).hasSize(70).isSorted();
    assertThat(queue.taken()).isEqualTo(70);
    assertThat(queue.accepted()).isEqualTo(70);
  }

  @Test
  @DisplayName("refuses what does not fit, and takes again once the writer has drained")
  void full() {
    EventQueue<Integer> queue = new EventQueue<>(4);
    for (int i = 0; i < 4; i++) {
      assertThat(queue.offer(i)).isTrue();
    }
    assertThat(queue.offer(4)).isFalse();
    Integer[] batch = new Integer[2];
    assertThat(queue.drain(batch, 2)).isEqualTo(2);
    assertThat(batch).containsExactly(0, 1);
    assertThat(queue.offer(5)).isTrue();
    assertThat(queue.offer(6)).isTrue();
    assertThat(queue.offer(7)).isFalse();
    Integer[] rest = new Integer[8];
    assertThat(queue.drain(rest, 8)).isEqualTo(4);
    assertThat(rest).startsWith(2, 3, 5, 6);
  }

  @Test
  @DisplayName("loses and duplicates nothing when threads offer while the writer drains")
  void concurrentProducers() throws Exception {
    EventQueue<Long> queue = new EventQueue<>(64);
    int producers = 3;
    int each = 50_000;
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int p = 0; p < producers; p++) {
      long base = (long) p << 32;
      Thread t = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < each; i++) {
          while (!queue.offer(base + i)) {
            Thread.onSpinWait();
          }
        }
      });
      threads.add(t);
      t.start();
    }
    start.countDown();
    long[] next = new long[producers];
    Long[] batch = new Long[16];
    int total = 0;
    while (total < producers * each) {
      int n = queue.drain(batch, batch.length);
      for (int i = 0; i < n; i++) {
        int p = (int) (batch[i] >>> 32);
        assertThat(batch[i] & 0xFFFF_FFFFL).as("producer %d's order", p).isEqualTo(next[p]++);
      }
      total += n;
    }
    for (Thread t : threads) {
      t.join();
    }
    assertThat(next).containsOnly(each);
    assertThat(queue.isEmpty()).isTrue();
  }
}
