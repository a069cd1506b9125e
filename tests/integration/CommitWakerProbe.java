/*
 * CommitWakerProbe.java - for tests/integration/commit_waker.sh: puts a
 * real CommitProcessor (Debian's ZooKeeper jar) into the state that
 * ZOOKEEPER-4537's lost wake-up leaves behind, and shows that it stays
 * there until data/zk/MultiPeer.java's CommitWaker wakes it once.
 *
 * The state: the processor's thread waits on its monitor, and a committed
 * request sits in its committedRequests queue.  CommitProcessor.commit()
 * would have added it and called notifyAll; in the race that notifyAll
 * came between the thread's unlocked look at the queues and its wait, so
 * the thread never saw it.  The probe adds the request without the
 * notifyAll, which is the same state without the race.
 *
 * Prints one line per step and exits 0 when: the request is not
 * processed while nobody wakes the processor (STUCK_MS: a processor that
 * took it anyway means the state was not reached and the test shows
 * nothing), and it is processed after one CommitWaker.wake (WAIT_MS only
 * bounds a failure).  Exit 1 otherwise.
 */
import java.lang.reflect.Field;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.ZooDefs.OpCode;
import org.apache.zookeeper.server.Request;
import org.apache.zookeeper.server.RequestProcessor;
import org.apache.zookeeper.server.quorum.CommitProcessor;

public final class CommitWakerProbe {
	private static final long STUCK_MS = 500;
	private static final long WAIT_MS = 30000;

	private static void fail(String why) {
		System.out.println("FAIL: " + why);
		System.exit(1);
	}

	public static void main(String[] args) throws Exception {
		CountDownLatch processed = new CountDownLatch(1);
		RequestProcessor next = new RequestProcessor() {
			@Override
			public void processRequest(Request r) {
				processed.countDown();
			}

			@Override
			public void shutdown() {
			}
		};
		CommitProcessor cp = new CommitProcessor(next, "probe", false, (name, code) -> {});
		cp.start();

		/* Its thread waits on the monitor: nothing queued. */
		long deadline = System.currentTimeMillis() + WAIT_MS;
		while (cp.getState() != Thread.State.WAITING) {
			if (System.currentTimeMillis() > deadline)
				fail("the commit processor never waited (state " + cp.getState() + ")");
			Thread.sleep(1);
		}
		System.out.println("processor waiting");

		/* A commit in the queue, its notifyAll lost. */
		Field f = CommitProcessor.class.getDeclaredField("committedRequests");
		f.setAccessible(true);
		@SuppressWarnings("unchecked")
		LinkedBlockingQueue<Request> committed = (LinkedBlockingQueue<Request>) f.get(cp);
		committed.add(new Request(null, 1L, 1, OpCode.setData, null, null));
		if (processed.await(STUCK_MS, TimeUnit.MILLISECONDS))
			fail("the commit was processed without a wake-up: the lost wake-up state was "
			     + "not reached");
		System.out.println("commit stuck for " + STUCK_MS + " ms without a wake-up");

		MultiPeer.CommitWaker.wake(cp);
		if (!processed.await(WAIT_MS, TimeUnit.MILLISECONDS))
			fail("the commit was not processed within " + WAIT_MS + " ms of the wake-up");
		System.out.println("commit processed after one wake-up");
		cp.shutdown();
		System.exit(0);
	}
}
