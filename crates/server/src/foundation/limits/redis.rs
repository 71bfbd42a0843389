//! The limiter's buckets in Redis, for deployments that configure `redis_url`: the same two
//! algorithms as the database buckets (`strikeline_store::rate_limits`), each hit one Lua
//! script, which Redis runs atomically. Keys expire when they would read as empty anyway.

use redis::Script;
use redis::aio::ConnectionManager;
use strikeline_store::rate_limits::{Backoff, Verdict};

/// A connection to Redis and the prefix of this deployment's keys.
#[derive(Clone)]
pub struct RedisBuckets {
    connection: ConnectionManager,
    prefix: String,
}

impl std::fmt::Debug for RedisBuckets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisBuckets").field("prefix", &self.prefix).finish_non_exhaustive()
    }
}

const GCRA: &str = r"
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
local now, interval, period = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local base = math.max(tat, now)
local next = base + interval
if next - now <= period then
  redis.call('SET', KEYS[1], next, 'PX', math.max(next - now, 1))
  return {1, next, 0}
end
return {0, tat, 0}
";

const BACKOFF: &str = r"
local now, free, step, cap, forget = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local v = redis.call('HMGET', KEYS[1], 'tat', 'n')
local tat, n = tonumber(v[1]), tonumber(v[2]) or 0
if tat and n >= free and tat > now then return {0, tat, n} end
if not tat or tat + forget < now then n = 0 end
n = n + 1
local wait = 0
if n >= free then wait = math.min((n - free + 1) * step, cap) end
redis.call('HSET', KEYS[1], 'tat', now + wait, 'n', n)
redis.call('PEXPIRE', KEYS[1], wait + forget)
return {1, now + wait, n}
";

fn verdict((allowed, tat_ms, attempts): (i64, i64, i64)) -> Verdict {
    Verdict { allowed: allowed == 1, tat_ms, attempts }
}

impl RedisBuckets {
    /// Connects to `url`; fails when Redis cannot be reached now (better at start-up than at
    /// the first sign-in).
    pub async fn connect(url: &str, prefix: &str) -> redis::RedisResult<RedisBuckets> {
        let client = redis::Client::open(url)?;
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_connection_timeout(Some(std::time::Duration::from_secs(3)))
            .set_response_timeout(Some(std::time::Duration::from_secs(3)))
            .set_number_of_retries(2);
        let connection = ConnectionManager::new_with_config(client, config).await?;
        Ok(RedisBuckets { connection, prefix: prefix.to_owned() })
    }

    fn key(&self, bucket: &str) -> String {
        format!("{}:rl:{bucket}", self.prefix)
    }

    pub async fn gcra(&self, bucket: &str, now_ms: i64, interval_ms: i64, period_ms: i64) -> redis::RedisResult<Verdict> {
        let mut connection = self.connection.clone();
        let result =
            Script::new(GCRA).key(self.key(bucket)).arg(now_ms).arg(interval_ms).arg(period_ms).invoke_async(&mut connection).await?;
        Ok(verdict(result))
    }

    pub async fn backoff(&self, bucket: &str, now_ms: i64, rule: Backoff) -> redis::RedisResult<Verdict> {
        let mut connection = self.connection.clone();
        let result = Script::new(BACKOFF)
            .key(self.key(bucket))
            .arg(now_ms)
            .arg(rule.free)
            .arg(rule.step_ms)
            .arg(rule.cap_ms)
            .arg(rule.forget_ms)
            .invoke_async(&mut connection)
            .await?;
        Ok(verdict(result))
    }

    pub async fn reset(&self, bucket: &str) -> redis::RedisResult<()> {
        let mut connection = self.connection.clone();
        redis::cmd("DEL").arg(self.key(bucket)).query_async::<()>(&mut connection).await
    }
}
