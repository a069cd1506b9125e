/*
 * labcat.c - the lab catalogue (see labcat.h).  Ids are fixed by DESIGN.md
 * §4 and embedded in lessons, so they never change here.
 */
#include "core/labcat.h"

#include <string.h>

static const struct labcat_entry catalogue[] = {
	{"id-collision", "01", "Snowflake 41/10/12 model: three ways to mint the same id twice",
	 "Snowflake 41/10/12 模型：三种发出重复 ID 的方式"},
	{"id-snowflake", "01",
	 "A generator that survives clock rollback, same-ms restart and a duplicate worker",
	 "能扛住时钟回拨、同毫秒重启和重复 worker 的发号器"},
	{"id-segment", "01", "SQLite segment allocator: lost replies and a restored backup",
	 "SQLite 号段分配：回复丢失与旧备份恢复"},
	{"id-uuid", "01", "RFC 9562 UUIDv4 and UUIDv7: layout, monotonic v7, collision budget",
	 "RFC 9562 UUIDv4 与 UUIDv7：布局、单调 v7 与碰撞预算"},
	{"zk-cas", "01", "setData with an expected version: BadVersion, and -1 skipping the check",
	 "带期望版本的 setData：BadVersion，以及 -1 跳过检查"},
	{"zk-lock-chain", "01,02",
	 "Predecessor watches n1 <- n2 <- n3: a notification is not the lock",
	 "前驱监听链 n1 <- n2 <- n3：通知不等于拿到锁"},
	{"zk-lock-race", "01,02",
	 "The predecessor vanishes between list and watch: re-list at once",
	 "列出与监听之间前驱消失：立即重新列出"},
	{"zk-create-lost", "01,02", "A proxy drops the create reply: recover the candidate by GUID",
	 "代理丢弃 create 回复：按 GUID 找回候选节点"},
	{"zk-disconnect-expire", "01", "Disconnected keeps the session; Expired ends the attempt",
	 "断连保留 session；过期结束本次尝试"},
	{"zk-herd", "01,02", "Wakeups per release: predecessor watch vs parent watch",
	 "每次释放唤醒多少等待者：前驱监听与父节点监听"},
	{"zk-seq-order", "02", "Suffix order vs name order; the signed 32-bit counter",
	 "按后缀排序与按名字排序；有符号 32 位计数器"},
	{"zk-fencing", "02", "Natural expiry; a durable fenced resource rejects the stale write",
	 "自然过期；持久化的 fencing 资源拒绝迟到的旧写"},
	{"zk-stale-read", "02", "Three-node ensemble: a lagging follower serves a stale read; sync",
	 "三节点集群：落后的 follower 返回旧值；sync"},
	{"zk-sync-partition", "02",
	 "ZOOKEEPER-1675 on five servers: sync then read returns old data during a partition",
	 "五节点上的 ZOOKEEPER-1675：分区期间 sync 之后仍读到旧值"},
	{"task-claim", "01", "Concurrent claimers: exactly one conditional UPDATE wins",
	 "并发领取：恰好一个条件 UPDATE 成功"},
	{"task-takeover", "01", "Lease expiry and takeover; late renew and complete change 0 rows",
	 "租约到期被接管；迟到的续租与完成影响 0 行"},
	{"task-lost-reply", "01", "Claim outcome unknown: recover by claim_id",
	 "领取结果未知：按 claim_id 找回"},
	{"task-cancel", "01",
	 "Cancel vs claim in both orders; cooperative cancel of a running task",
	 "取消与领取的两种先后；运行中任务的协作取消"},
	{"task-scanner", "01", "A periodic scanner stops after a failure; oldest-due age alarms",
	 "周期扫描器异常后停止；最老到期任务的年龄告警"},
	{"redis-lock", "01", "SET NX PX; an unconditional DEL removes another's lock",
	 "SET NX PX；无条件 DEL 会删掉别人的锁"},
};

static labcat_runnable_fn runner;

const struct labcat_entry *labcat_find(const char *id)
{
	for (size_t i = 0; id && i < sizeof catalogue / sizeof catalogue[0]; i++)
		if (!strcmp(catalogue[i].id, id))
			return &catalogue[i];
	return NULL;
}

const struct labcat_entry *labcat_all(size_t *n)
{
	*n = sizeof catalogue / sizeof catalogue[0];
	return catalogue;
}

const char *labcat_summary(const struct labcat_entry *e, const char *lang)
{
	return (lang && !strcmp(lang, "zh")) ? e->summary_zh : e->summary_en;
}

void labcat_set_runner(labcat_runnable_fn fn)
{
	runner = fn;
}

int labcat_runnable(const char *id)
{
	return runner ? runner(id) : 0;
}
