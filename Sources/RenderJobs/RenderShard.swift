import Parameters
import Rig

/// `--shard K/N`: the K-th of N parts of a batch's job list, so that N processes — a Slurm job
/// array, GNU parallel, a Kubernetes indexed job — render every job exactly once between them.
///
/// Job `i` (its place in the whole list, before any is skipped) belongs to shard `i % N`: the
/// parts differ in size by at most one job, and a job's shard depends only on its place and
/// N, so a shard started again (with `--skip-existing`) takes up exactly the jobs it had.
///
/// ```sh
/// detent render --manifest jobs.jsonl --shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT"
/// ```
package struct RenderShard: Equatable {
    /// K, counted from 0 as Slurm's `SLURM_ARRAY_TASK_ID` is for `--array=0-…`.
    package let index: Int
    /// N.
    package let count: Int

    /// The whole list: what a batch without `--shard` renders.
    package static let all = RenderShard(index: 0, count: 1)

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Reads `K/N`; anything else (N below 1, K outside 0 … N-1, an empty part from an unset
    /// variable) is one usage error.
    package init(parsing text: String) throws(UsageError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(String(parts[0]).trimmedWhitespace), let n = Int(String(parts[1]).trimmedWhitespace),
              n >= 1, (0..<n).contains(k) else {
            throw UsageError("--shard '\(text)': expected K/N, shard K (0 … N-1) of N, e.g. 0/8 "
                + "(for a Slurm array: $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT)")
        }
        self.init(index: k, count: n)
    }

    /// True when job `job` (its place in the whole list) is this shard's.
    package func contains(_ job: Int) -> Bool { job % count == index }

    /// True when one of the jobs in `places` is this shard's (the variants of one manifest
    /// line), without counting through them.
    package func containsAny(_ places: Range<Int>) -> Bool {
        guard !places.isEmpty else { return false }
        let first = places.lowerBound + ((index - places.lowerBound % count) % count + count) % count
        return first < places.upperBound
    }
}
