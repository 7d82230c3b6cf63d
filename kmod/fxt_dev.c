// SPDX-License-Identifier: GPL-2.0-only
/*
 * /dev/fxt_sched: one open file at a time owns a session: its rings,
 * their mappings and the probes. The ioctls and the mmap layout are in
 * include/fxt/fxt_sched_uapi.h.
 *
 * Lifetime: a mapping holds its file, and the file holds the module, so
 * the rings are freed in release() only after the last munmap(), and the
 * module cannot be unloaded while a ring is open or mapped. Tracing stops
 * in release() at the latest.
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/log2.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <fxt/fxt_sched_uapi.h>
#include <fxt/sched.h>

#include "fxt_probes.h"
#include "fxt_session.h"

static atomic_t fxt_dev_busy = ATOMIC_INIT(0);

static bool fxt_may_trace(void)
{
	return perfmon_capable();
}

static u64 fxt_cpu_stride(const struct fxt_session *s)
{
	return fxt_ring_area_bytes(s->buffer_bytes);
}

static void fxt_free_rings(struct fxt_session *s)
{
	unsigned int cpu;

	if (!s->rings)
		return;
	for (cpu = 0; cpu < s->ncpus; cpu++)
		fxt_ring_free(&s->rings[cpu]);
	kvfree(s->rings);
	s->rings = NULL;
}

static int fxt_alloc_rings(struct fxt_session *s,
			   const struct fxt_sched_config *cfg)
{
	struct fxt_ring *rings;
	unsigned int cpu;
	int err;

	rings = kvcalloc(nr_cpu_ids, sizeof(*rings), GFP_KERNEL);
	if (!rings)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		err = fxt_ring_init(&rings[cpu], cfg->buffer_bytes, cfg->mode,
				    cfg->watermark, &s->waiters);
		if (err)
			goto fail;
	}
	fxt_free_rings(s);
	s->rings = rings;
	s->ncpus = nr_cpu_ids;
	s->buffer_bytes = cfg->buffer_bytes;
	s->watermark = cfg->watermark;
	s->mode = cfg->mode;
	s->events = cfg->events;
	memcpy(s->syscall_pids, cfg->syscall_pids, sizeof(s->syscall_pids));
	s->sample_period_ns = NSEC_PER_SEC / cfg->sample_hz;
	s->offcpu_min_ns = cfg->offcpu_min_ns;
	return 0;
fail:
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		fxt_ring_free(&rings[cpu]);
	kvfree(rings);
	return err;
}

/* Fills in defaults and checks every field; -EINVAL on anything odd. */
static int fxt_check_config(struct fxt_sched_config *cfg)
{
	u64 min_bytes = max_t(u64, FXT_SCHED_BUFFER_MIN, PAGE_SIZE);

	if (cfg->reserved[0] || cfg->reserved[1] || cfg->sample_reserved)
		return -EINVAL;
	if (!cfg->sample_hz)
		cfg->sample_hz = FXT_SCHED_SAMPLE_HZ_DEFAULT;
	if (cfg->sample_hz < FXT_SCHED_SAMPLE_HZ_MIN ||
	    cfg->sample_hz > FXT_SCHED_SAMPLE_HZ_MAX)
		return -EINVAL;
	if (!cfg->buffer_bytes)
		cfg->buffer_bytes = FXT_SCHED_BUFFER_DEFAULT;
	if (cfg->buffer_bytes < min_bytes ||
	    cfg->buffer_bytes > FXT_SCHED_BUFFER_MAX ||
	    !is_power_of_2(cfg->buffer_bytes))
		return -EINVAL;
	if (cfg->mode > FXT_BUFFERING_STREAMING)
		return -EINVAL;
	if (!cfg->events || (cfg->events & ~FXT_SCHED_EV_ALL))
		return -EINVAL;
	if (!cfg->watermark)
		cfg->watermark = cfg->buffer_bytes / 2;
	if (cfg->watermark >= cfg->buffer_bytes)
		return -EINVAL;
	return 0;
}

static long fxt_configure(struct fxt_session *s, void __user *arg)
{
	struct fxt_sched_config cfg;
	long err;

	if (copy_from_user(&cfg, arg, sizeof(cfg)))
		return -EFAULT;
	err = fxt_check_config(&cfg);
	if (err)
		return err;
	mutex_lock(&s->lock);
	if (s->tracing || atomic_read(&s->mappings))
		err = -EBUSY;
	else
		err = fxt_alloc_rings(s, &cfg);
	mutex_unlock(&s->lock);
	return err;
}

static long fxt_info(struct fxt_session *s, void __user *arg)
{
	struct fxt_sched_info info = {
		.abi_version = FXT_SCHED_ABI_VERSION,
		.page_size = PAGE_SIZE,
		.max_record_words = FXT_SCHED_RECORD_MAX_WORDS,
		.ctrl_offset = 0,
		.consumer_offset = PAGE_SIZE,
		.data_offset = 2 * PAGE_SIZE,
	};

	mutex_lock(&s->lock);
	info.ncpus = s->ncpus;
	info.buffer_bytes = s->buffer_bytes;
	info.cpu_stride = fxt_cpu_stride(s);
	info.mode = s->mode;
	info.events = s->events;
	info.watermark = s->watermark;
	info.tracing = s->tracing;
	info.missing = fxt_probes_missing();
	mutex_unlock(&s->lock);
	return copy_to_user(arg, &info, sizeof(info)) ? -EFAULT : 0;
}

static long fxt_stats(struct fxt_session *s, void __user *arg)
{
	struct fxt_sched_stats st = { 0 };
	unsigned int cpu;

	mutex_lock(&s->lock);
	st.ncpus = s->ncpus;
	st.tracing = s->tracing;
	for_each_possible_cpu(cpu) {
		const struct fxt_ring_ctrl *c = s->rings[cpu].ctrl;

		st.records += READ_ONCE(c->records);
		st.bytes += smp_load_acquire(&c->head);	/* C: pairs with B */
		st.dropped += READ_ONCE(c->dropped);
		st.overwritten += READ_ONCE(c->overwritten);
	}
	mutex_unlock(&s->lock);
	return copy_to_user(arg, &st, sizeof(st)) ? -EFAULT : 0;
}

static long fxt_start(struct fxt_session *s)
{
	int err;

	if (s->tracing)
		return -EBUSY;
	err = fxt_probes_start(s);
	if (err)
		return err;
	s->tracing = true;
	return 0;
}

static long fxt_stop(struct fxt_session *s)
{
	unsigned int cpu;

	if (!s->tracing)
		return 0;
	fxt_probes_stop(s);
	for_each_possible_cpu(cpu)
		irq_work_sync(&s->rings[cpu].wake_work);
	s->tracing = false;
	return 0;
}

static long fxt_reset(struct fxt_session *s)
{
	unsigned int cpu;

	if (s->tracing)
		return -EBUSY;
	for_each_possible_cpu(cpu)
		fxt_ring_reset(&s->rings[cpu]);
	return 0;
}

static long fxt_latency(struct fxt_session *s, void __user *arg)
{
	u64 threshold_ns;

	if (copy_from_user(&threshold_ns, arg, sizeof(threshold_ns)))
		return -EFAULT;
	mutex_lock(&s->lock);
	fxt_probes_set_latency(s, threshold_ns);
	mutex_unlock(&s->lock);
	return 0;
}

static long fxt_locked(struct fxt_session *s,
		       long (*op)(struct fxt_session *s))
{
	long ret;

	mutex_lock(&s->lock);
	ret = op(s);
	mutex_unlock(&s->lock);
	return ret;
}

/*
 * ->mmap() takes s->lock under mmap_lock, and a fault in copy_to_user()
 * or copy_from_user() takes mmap_lock: s->lock is never held across a
 * user copy, or an ioctl faulting on its argument and a concurrent mmap()
 * of the device would deadlock (ABBA).
 */
static long fxt_dev_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	struct fxt_session *s = file->private_data;
	void __user *uarg = (void __user *)arg;

	if (cmd == FXT_SCHED_IOC_VERSION)
		return FXT_SCHED_ABI_VERSION;
	if (!fxt_may_trace())
		return -EPERM;

	switch (cmd) {
	case FXT_SCHED_IOC_INFO:
		return fxt_info(s, uarg);
	case FXT_SCHED_IOC_CONFIGURE:
		return fxt_configure(s, uarg);
	case FXT_SCHED_IOC_STATS:
		return fxt_stats(s, uarg);
	case FXT_SCHED_IOC_START:
		return fxt_locked(s, fxt_start);
	case FXT_SCHED_IOC_STOP:
		return fxt_locked(s, fxt_stop);
	case FXT_SCHED_IOC_RESET:
		return fxt_locked(s, fxt_reset);
	case FXT_SCHED_IOC_LATENCY:
		return fxt_latency(s, uarg);
	default:
		return -ENOTTY;
	}
}

static __poll_t fxt_dev_poll(struct file *file, poll_table *wait)
{
	struct fxt_session *s = file->private_data;
	__poll_t mask = 0;
	unsigned int cpu;

	poll_wait(file, &s->waiters, wait);
	mutex_lock(&s->lock);
	if (s->mode == FXT_BUFFERING_STREAMING) {
		for_each_possible_cpu(cpu) {
			if (fxt_ring_readable(&s->rings[cpu])) {
				mask = EPOLLIN | EPOLLRDNORM;
				break;
			}
		}
	}
	mutex_unlock(&s->lock);
	return mask;
}

static void fxt_vma_open(struct vm_area_struct *vma)
{
	struct fxt_session *s = vma->vm_file->private_data;

	atomic_inc(&s->mappings);
}

static void fxt_vma_close(struct vm_area_struct *vma)
{
	struct fxt_session *s = vma->vm_file->private_data;

	atomic_dec(&s->mappings);
}

static const struct vm_operations_struct fxt_vm_ops = {
	.open = fxt_vma_open,
	.close = fxt_vma_close,
};

static void fxt_vma_flags(struct vm_area_struct *vma, unsigned long set,
			  unsigned long clear)
{
#ifdef FXT_HAVE_VM_FLAGS_MOD
	vm_flags_mod(vma, set, clear);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
#endif
}

/*
 * A mapping lies inside one CPU's region; only the consumer page, mapped
 * alone, may be (or become) writable.
 */
static int fxt_mmap_locked(struct fxt_session *s, struct vm_area_struct *vma)
{
	u64 stride = fxt_cpu_stride(s);
	u64 len = vma->vm_end - vma->vm_start;
	u64 off, cpu, in_region;
	bool consumer_page;
	int err;

	if (vma->vm_pgoff > U64_MAX >> PAGE_SHIFT)
		return -EINVAL;
	off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	cpu = div64_u64(off, stride);
	in_region = off - cpu * stride;
	consumer_page = in_region == PAGE_SIZE && len == PAGE_SIZE;
	if (cpu >= s->ncpus || !cpu_possible(cpu) ||
	    in_region + len > stride)
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;
	if ((vma->vm_flags & VM_WRITE) && !consumer_page)
		return -EPERM;
	/* A private copy of the consumer page would never reach us. */
	if ((vma->vm_flags & VM_WRITE) && !(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	err = remap_vmalloc_range(vma, s->rings[cpu].area,
				  in_region >> PAGE_SHIFT);
	if (err)
		return err;
	fxt_vma_flags(vma, VM_DONTCOPY | VM_DONTEXPAND,
		      VM_MAYEXEC | (consumer_page ? 0 : VM_MAYWRITE));
	vma->vm_ops = &fxt_vm_ops;
	atomic_inc(&s->mappings);
	return 0;
}

static int fxt_dev_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct fxt_session *s = file->private_data;
	int err;

	if (!fxt_may_trace())
		return -EPERM;
	mutex_lock(&s->lock);
	err = fxt_mmap_locked(s, vma);
	mutex_unlock(&s->lock);
	return err;
}

static int fxt_dev_open(struct inode *inode, struct file *file)
{
	struct fxt_sched_config cfg = { .events = FXT_SCHED_EV_DEFAULT,
					.mode = FXT_BUFFERING_STREAMING };
	struct fxt_session *s;
	int err;

	if (!fxt_may_trace())
		return -EPERM;
	/* One session at a time: a second reader gets -EBUSY. */
	if (atomic_cmpxchg(&fxt_dev_busy, 0, 1))
		return -EBUSY;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s) {
		err = -ENOMEM;
		goto fail;
	}
	mutex_init(&s->lock);
	init_waitqueue_head(&s->waiters);
	err = fxt_check_config(&cfg);
	if (!err)
		err = fxt_alloc_rings(s, &cfg);
	if (err)
		goto fail;
	file->private_data = s;
	return nonseekable_open(inode, file);
fail:
	kfree(s);
	atomic_set(&fxt_dev_busy, 0);
	return err;
}

static int fxt_dev_release(struct inode *inode, struct file *file)
{
	struct fxt_session *s = file->private_data;

	mutex_lock(&s->lock);
	fxt_stop(s);
	fxt_free_rings(s);
	mutex_unlock(&s->lock);
	mutex_destroy(&s->lock);
	kfree(s);
	atomic_set(&fxt_dev_busy, 0);
	return 0;
}

static const struct file_operations fxt_dev_fops = {
	.owner = THIS_MODULE,
	.open = fxt_dev_open,
	.release = fxt_dev_release,
	.unlocked_ioctl = fxt_dev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.poll = fxt_dev_poll,
	.mmap = fxt_dev_mmap,
};

static struct miscdevice fxt_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "fxt_sched",
	.fops = &fxt_dev_fops,
	.mode = 0600,
};

static int __init fxt_sched_init(void)
{
	int err = fxt_probes_init();

	if (err)
		return err;
	return misc_register(&fxt_dev);
}

static void __exit fxt_sched_exit(void)
{
	misc_deregister(&fxt_dev);
	/* No file is open (it would hold the module): no probe is left. */
	tracepoint_synchronize_unregister();
}

module_init(fxt_sched_init);
module_exit(fxt_sched_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("fxtrace");
MODULE_DESCRIPTION("Per-CPU mmap-able rings of FXT scheduling records");
