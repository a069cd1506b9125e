/*
 * MultiPeer.java - several real ZooKeeper ensemble members (QuorumPeers)
 * in one JVM, for the workbench's ensemble labs (labs/harness/zk/
 * zkensemble.c, option shared_jvm).  Each member is Debian's own
 * QuorumPeerMain (a subclass, for its protected initializeAndRun and
 * quorumPeer) run from a thread of its own on its own zoo.cfg: the same
 * server code, ports, election and quorum links (through the lab's
 * relays) as one JVM per member; only the JVM's start and class loading
 * happen once instead of N times, which is most of an ensemble's start
 * on a small machine.
 *
 * Usage: MultiPeer <other.log> <control-fifo or -> <member-dir>...
 *   Each <member-dir> holds zoo.cfg; that member's log lines (those of
 *   every thread started from its thread: log4j 1.2's MDC is inherited)
 *   go to <member-dir>/zookeeper.log, lines of no member to <other.log>.
 *   The control FIFO (when not "-") carries lines "stop K" and "start K"
 *   (K: 1-based position among the member dirs): stop shuts member K's
 *   peer down (QuorumPeer.shutdown: its ports close), start runs it again
 *   on the same zoo.cfg.  End of file on the FIFO (the workbench is gone)
 *   ends the JVM.
 *   A member whose start fails (bad config, a port in use) ends the JVM
 *   with status 2, the reason in that member's log and on standard output
 *   ("member K failed to start: ..."; only the first failing member's):
 *   the workbench reports that member and starts no member half-way.
 *
 * One repair of ZooKeeper's own: ZOOKEEPER-4537 (fixed upstream in
 * 3.8.1; Debian 12's 3.8.0-11 does not carry the fix).  CommitProcessor.run
 * reads its two queues outside its monitor and then waits on it, so a
 * commit that arrives between the read and the wait has its notifyAll
 * lost: the commit waits until the next request or commit reaches that
 * server.  With the labs' few clients nothing else may come: a client
 * with calls outstanding sends no pings (the C client pings only when
 * none is outstanding), so its calls stall until its own receive timeout,
 * 2/3 of the session timeout (zk-stale-read once failed that way in CI:
 * all four calls ZOPERATIONTIMEOUT 20 s after the release, the follower
 * still following).  CommitWaker calls notifyAll on every member's commit
 * processor every WAKE_MS.  A wake-up that finds nothing to do waits again
 * (the wait loop re-reads both queues under the monitor), so it changes
 * nothing but the length of such a stall: at most WAKE_MS.  Each member's
 * log says once per server role that it is woken (test_zkensemble reads
 * that line; tests/integration/commit_waker.sh puts a real CommitProcessor
 * into the lost-wake-up state and shows the waker releases it).
 *
 * Deliberately not here: a crash of one member (a SIGKILL cannot pick one
 * thread; the workbench refuses kill in this mode), dynamic
 * reconfiguration, any setting of its own (every setting is in zoo.cfg or
 * in the -D options of the command line, as for one JVM per member).
 *
 * Compiled by the workbench itself (java -m jdk.compiler) into a jar in
 * its cache, keyed by a hash of java, this file and the class path.
 */
import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.FileAppender;
import org.apache.log4j.Layout;
import org.apache.log4j.Level;
import org.apache.log4j.LogManager;
import org.apache.log4j.Logger;
import org.apache.log4j.MDC;
import org.apache.log4j.PatternLayout;
import org.apache.log4j.spi.LoggingEvent;
import org.apache.zookeeper.server.quorum.QuorumPeer;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;

public final class MultiPeer {
	private static final String KEY = "wbMember";
	private static final Object FAIL = new Object();
	private static final String PATTERN = "%d{ISO8601} - %-5p [%t:%C{1}@%L] - %m%n";

	/* Routes each event to its member's file by the MDC key. */
	private static final class MemberAppender extends AppenderSkeleton {
		private final ConcurrentHashMap<String, FileAppender> files = new ConcurrentHashMap<>();
		private final FileAppender other;

		MemberAppender(Layout layout, String otherLog) throws IOException {
			other = new FileAppender(layout, otherLog, true);
		}

		void add(String key, Layout layout, String path) throws IOException {
			files.put(key, new FileAppender(layout, path, true));
		}

		@Override
		protected void append(LoggingEvent ev) {
			Object k = ev.getMDC(KEY);
			FileAppender f = k == null ? null : files.get(k.toString());
			(f != null ? f : other).doAppend(ev);
		}

		@Override
		public void close() {
			for (FileAppender f : files.values())
				f.close();
			other.close();
		}

		@Override
		public boolean requiresLayout() {
			return false;
		}
	}

	/* Ends the JVM for member pos's failed start.  Only the first failure
	 * reports (the lock is never released: the halt comes first), so the
	 * workbench reads one member's complete reason, in that member's log
	 * and as the line "member K failed to start: ..." on standard output,
	 * even when every member's config is bad. */
	private static void fail(int pos, String cfg, Throwable x) {
		synchronized (FAIL) {
			Logger log = Logger.getLogger(MultiPeer.class);
			log.error("member " + pos + " (" + cfg + ") failed to start", x);
			/* the reasons last, where an error message's tail shows them */
			StringBuilder why = new StringBuilder();
			for (Throwable c = x; c != null; c = c.getCause())
				why.append(why.length() > 0 ? ": " : "").append(c.getMessage());
			log.error("member " + pos + " failed to start: " + why);
			System.out.println("member " + pos + " failed to start: " + why);
			System.out.flush();
			LogManager.shutdown();
			Runtime.getRuntime().halt(2);
		}
	}

	/* Wakes every member's CommitProcessor every WAKE_MS (ZOOKEEPER-4537,
	 * see the opening comment).  members is main's array: control()
	 * replaces an element on "start K", and this thread reads the elements
	 * afresh each round. */
	static final class CommitWaker extends Thread {
		static final int WAKE_MS = 10;
		private final Member[] members;
		private final Object[] seen; /* per member: the server last reported */

		CommitWaker(Member[] members) {
			super("commit-waker");
			setDaemon(true);
			this.members = members;
			this.seen = new Object[members.length];
		}

		/* Field name of o, declared by its class or a superclass, or
		 * null: not set yet, or no such field. */
		static Object field(Object o, String name) {
			for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
				try {
					Field f = c.getDeclaredField(name);
					f.setAccessible(true);
					return f.get(o);
				} catch (NoSuchFieldException e) {
					continue;
				} catch (ReflectiveOperationException | RuntimeException e) {
					return null;
				}
			}
			return null;
		}

		/* p's server in its current role (field zk of its Leader, or of
		 * its Follower or Observer: Learner), or null.  What
		 * QuorumPeer.getActiveServer returns, without taking the peer's
		 * monitor, which QuorumPeer.start holds while a restarted member
		 * loads its database: the other members are woken meanwhile. */
		static Object activeServer(QuorumPeer p) {
			Object role = p.leader != null ? p.leader : p.follower != null ? p.follower : p.observer;
			return role == null ? null : field(role, "zk");
		}

		/* One wake-up: what CommitProcessor.wakeup() does, from outside. */
		static void wake(Object cp) {
			synchronized (cp) {
				cp.notifyAll();
			}
		}

		@Override
		public void run() {
			for (;;) {
				for (int i = 0; i < members.length; i++) {
					Member m = members[i];
					QuorumPeer p = m == null ? null : m.peer();
					/* commitProcessor: a field of LeaderZooKeeperServer
					 * and of LearnerZooKeeperServer */
					Object zks = p == null ? null : activeServer(p);
					Object cp = zks == null ? null : field(zks, "commitProcessor");
					if (cp == null)
						continue;
					wake(cp);
					if (seen[i] != zks) {
						seen[i] = zks;
						MDC.put(KEY, Integer.toString(i + 1));
						Logger.getLogger(MultiPeer.class)
							.info("commit processor of " +
							      zks.getClass().getSimpleName() + " woken every " +
							      WAKE_MS + " ms (ZOOKEEPER-4537)");
						MDC.remove(KEY);
					}
				}
				try {
					Thread.sleep(WAKE_MS);
				} catch (InterruptedException e) {
					return;
				}
			}
		}
	}

	/* One member: QuorumPeerMain run on its config from its own thread. */
	private static final class Member extends QuorumPeerMain {
		final int pos;
		final String cfg;
		volatile Thread thread;

		Member(int pos, String dir) {
			this.pos = pos;
			this.cfg = dir + "/zoo.cfg";
		}

		void begin() {
			Member self = this;
			Thread t = new Thread(() -> {
				MDC.put(KEY, Integer.toString(pos));
				try {
					self.initializeAndRun(new String[] {cfg});
				} catch (Throwable x) {
					fail(pos, cfg, x);
				}
			}, "member-" + pos);
			thread = t;
			t.start();
		}

		/* Its peer, once initializeAndRun has made it. */
		QuorumPeer peer() {
			return quorumPeer;
		}

		void end() throws InterruptedException {
			if (quorumPeer != null)
				quorumPeer.shutdown();
			Thread t = thread;
			if (t != null)
				t.join(10000);
			thread = null;
		}
	}

	public static void main(String[] args) throws Exception {
		if (args.length < 3) {
			System.err.println("usage: MultiPeer <other.log> <control-fifo|-> <member-dir>...");
			System.exit(2);
		}
		Layout layout = new PatternLayout(PATTERN);
		MemberAppender app = new MemberAppender(layout, args[0]);
		Member[] members = new Member[args.length - 2];
		for (int i = 0; i < members.length; i++) {
			String dir = args[i + 2];
			app.add(Integer.toString(i + 1), layout, dir + "/zookeeper.log");
			members[i] = new Member(i + 1, dir);
		}
		Logger root = Logger.getRootLogger();
		root.removeAllAppenders();
		root.setLevel(Level.INFO);
		root.addAppender(app);
		for (Member m : members)
			m.begin();
		new CommitWaker(members).start();
		if (args[1].equals("-")) {
			for (Member m : members)
				m.thread.join();
			return;
		}
		control(args[1], members);
	}

	/* Reads "stop K" / "start K" lines until end of file, then exits. */
	private static void control(String fifo, Member[] members) throws Exception {
		try (BufferedReader in = new BufferedReader(
			     new InputStreamReader(new FileInputStream(fifo), StandardCharsets.UTF_8))) {
			String line;
			while ((line = in.readLine()) != null) {
				String[] w = line.trim().split(" ");
				int k = w.length == 2 ? Integer.parseInt(w[1]) : 0;
				if (k < 1 || k > members.length)
					continue;
				Member m = members[k - 1];
				if (w[0].equals("stop") && m.thread != null)
					m.end();
				else if (w[0].equals("start") && m.thread == null) {
					members[k - 1] = new Member(k, m.cfg.substring(0, m.cfg.length() - 8));
					members[k - 1].begin();
				}
			}
		}
		System.exit(0);
	}
}
