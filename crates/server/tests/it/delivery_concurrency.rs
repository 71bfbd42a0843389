//! Deliveries run concurrently (issue 25, row 7): three webhook receivers that take 10 s to
//! answer delay nobody else's delivery; at most `delivery.concurrency` lanes run at once; and one
//! endpoint is sent one message at a time, in order.
//!
//! The tests drive the worker as the background loop does (`Worker::start_due` starts lanes and
//! returns at once) or as one pass (`run_due`), with local receivers on 127.0.0.1 that hold
//! their answer until the test opens their gate (or 10 s pass). Each test is bounded in time.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use strikeline_server::services::{delivering, webhooks as hooks};
use strikeline_store::{outbox, users, webhooks};
use tokio::io::AsyncWriteExt;
use tokio::sync::watch;

use crate::common::TestApp;

on_both_engines_with!(slow_receivers, crate::delivery_concurrency::with_slow_receivers;
    a_slow_receiver_delays_nobody_else,
    one_pass_sends_to_every_endpoint_at_once,
    at_most_the_configured_number_of_lanes_run_at_once,
    messages_to_one_endpoint_go_in_order_one_at_a_time,
);

/// How long a slow receiver takes to answer, unless its gate opens first.
const SLOW: Duration = Duration::from_secs(10);

/// Messages queued for each slow endpoint before the fast one's.
const BACKLOG: usize = 25;

/// The longest a test may run.
const BOUND: Duration = Duration::from_secs(60);

/// Webhooks to local receivers (plain http on 127.0.0.1), a request timeout long enough for a
/// 10 s answer to arrive, and one retry a minute later.
fn with_slow_receivers(config: &mut strikeline_server::foundation::config::Config) {
    config.delivery.allow_http = true;
    config.delivery.allow_private = true;
    config.delivery.timeout_seconds = 15;
    config.delivery.retry_seconds = vec![60];
}

/// One request a receiver got.
#[derive(Clone, Debug)]
struct Hit {
    id: String,
    arrived: Instant,
    answered: Option<Instant>,
}

/// A local receiver: answers each request (in turn, the statuses in `answers`, the last from
/// then on) once its gate opens or `hold` has passed, and keeps what it saw.
struct Receiver {
    url: String,
    hits: Arc<Mutex<Vec<Hit>>>,
    peak: Arc<Mutex<(usize, usize)>>,
    gate: watch::Sender<bool>,
}

impl Receiver {
    async fn start(hold: Duration, answers: Vec<u16>) -> Receiver {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let url = format!("http://127.0.0.1:{}/hooks", listener.local_addr().expect("addr").port());
        let hits = Arc::new(Mutex::new(Vec::<Hit>::new()));
        // (in flight now, most in flight at once)
        let peak = Arc::new(Mutex::new((0usize, 0usize)));
        let (gate, opened) = watch::channel(false);
        let (kept, counted) = (hits.clone(), peak.clone());
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let (hits, peak, mut opened, answers) = (kept.clone(), counted.clone(), opened.clone(), answers.clone());
                tokio::spawn(async move {
                    let Some(request) = crate::webhooks::read_request(&mut socket).await else { return };
                    let id = request.header("webhook-id").unwrap_or_default().to_owned();
                    let index = {
                        let mut all = hits.lock().expect("lock");
                        all.push(Hit { id, arrived: Instant::now(), answered: None });
                        all.len() - 1
                    };
                    {
                        let mut peak = peak.lock().expect("lock");
                        peak.0 += 1;
                        peak.1 = peak.1.max(peak.0);
                    }
                    let _ = tokio::time::timeout(hold, opened.wait_for(|open| *open)).await;
                    peak.lock().expect("lock").0 -= 1;
                    hits.lock().expect("lock")[index].answered = Some(Instant::now());
                    let status = answers.get(index).or(answers.last()).copied().unwrap_or(200);
                    let answer = format!("HTTP/1.1 {status} X\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok");
                    let _ = socket.write_all(answer.as_bytes()).await;
                });
            }
        });
        Receiver { url, hits, peak, gate }
    }

    /// A receiver that takes [`SLOW`] to answer 200, unless opened first.
    async fn slow() -> Receiver {
        Receiver::start(SLOW, vec![200]).await
    }

    /// A receiver that answers 200 at once.
    async fn fast() -> Receiver {
        Receiver::start(Duration::ZERO, vec![200]).await
    }

    fn open(&self) {
        self.gate.send_replace(true);
    }

    fn hits(&self) -> Vec<Hit> {
        self.hits.lock().expect("lock").clone()
    }

    /// The most requests it was answering at once.
    fn peak(&self) -> usize {
        self.peak.lock().expect("lock").1
    }

    /// Waits (at most `within`) until it has got `count` requests.
    async fn wait_for(&self, count: usize, within: Duration) {
        let deadline = Instant::now() + within;
        while self.hits().len() < count {
            assert!(Instant::now() < deadline, "{} got {} of {count} requests within {within:?}", self.url, self.hits().len());
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

/// An account (straight into the store: no password hashing to wait for) with an active
/// endpoint at `url`; the endpoint's id.
async fn endpoint_of_a_new_account(app: &TestApp, name: &str, url: &str) -> String {
    let now = app.now();
    let user = users::insert(
        app.db(),
        &users::NewUser {
            id: uuid::Uuid::new_v4().to_string(),
            email: format!("{name}@example.com"),
            username: name.to_owned(),
            password_hash: "x".into(),
            first_name: None,
            last_name: None,
            subscription_plan: "pro".into(),
            subscription_status: "active".into(),
            subscription_expires_at: None,
            created_at: now,
        },
    )
    .await
    .expect("user");
    strikeline_store::accounts::mark_confirmed(app.db(), &user.id, now).await.expect("confirmed");
    let endpoint = webhooks::Endpoint {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: user.id,
        url: url.to_owned(),
        event_type: "new_signal".into(),
        secret: strikeline_server::foundation::outbound::standard_webhooks::new_secret(),
        is_active: true,
        failing_since: None,
        disabled_at: None,
        created_at: now,
        account_id: None,
    };
    assert!(webhooks::insert_within(app.db(), &endpoint, 10).await.expect("endpoint"));
    endpoint.id
}

/// Queues a `new_signal` message for `endpoint_id`, due (and created) at `at`; its id.
async fn queue(app: &TestApp, endpoint_id: &str, id: &str, at: DateTime<Utc>) -> String {
    let endpoint = webhooks::by_id(app.db(), endpoint_id).await.expect("read").expect("endpoint");
    let message = outbox::Message::pending(
        id.to_owned(),
        hooks::CHANNEL,
        &endpoint.user_id,
        Some(endpoint_id),
        "new_signal",
        format!(r#"{{"type":"new_signal","data":{{"id":"{id}"}}}}"#),
        at,
    );
    outbox::enqueue(app.db(), &[message]).await.expect("queued");
    id.to_owned()
}

async fn stored(app: &TestApp, id: &str) -> outbox::Message {
    outbox::get(app.db(), id).await.expect("read").expect("kept")
}

/// Waits (at most `within`) until the message is delivered.
async fn delivered_within(app: &TestApp, id: &str, within: Duration) {
    let deadline = Instant::now() + within;
    while stored(app, id).await.status != "delivered" {
        assert!(Instant::now() < deadline, "{id} was not delivered within {within:?}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Waits for every running lane; the attempts they made.
async fn finish(lanes: &mut delivering::Lanes) -> usize {
    let mut made = 0;
    while let Some(ended) = lanes.join_next().await {
        made += ended.expect("the lane ran").expect("the lane's writes");
    }
    made
}

/// Row 7: three receivers of other accounts take 10 s to answer; a message queued for a fast
/// endpoint while they are being sent to is delivered within a second, as the background loop
/// sends it (a pass starts lanes and does not wait for them).
async fn a_slow_receiver_delays_nobody_else(app: TestApp) {
    tokio::time::timeout(BOUND, async {
        let slow = [Receiver::slow().await, Receiver::slow().await, Receiver::slow().await];
        let fast = Receiver::fast().await;
        let mut slow_ids = Vec::new();
        for (i, receiver) in slow.iter().enumerate() {
            let endpoint = endpoint_of_a_new_account(&app, &format!("slow{i}"), &receiver.url).await;
            slow_ids.push(queue(&app, &endpoint, &format!("msg_slow{i}"), app.now()).await);
        }
        let fast_endpoint = endpoint_of_a_new_account(&app, "fast", &fast.url).await;

        let worker = delivering::Worker::configured(&app.state);
        let mut lanes = delivering::Lanes::new();
        let began = Instant::now();
        assert_eq!(worker.start_due(&app.state, app.now(), &mut lanes).await.expect("pass"), 3, "a lane per endpoint");
        assert!(began.elapsed() < Duration::from_secs(1), "a pass does not wait for its lanes: {:?}", began.elapsed());
        for receiver in &slow {
            receiver.wait_for(1, Duration::from_secs(5)).await;
        }

        // Another account's message, queued while the three are being sent to.
        let queued = Instant::now();
        let fast_id = queue(&app, &fast_endpoint, "msg_fast", app.now()).await;
        assert_eq!(worker.start_due(&app.state, app.now(), &mut lanes).await.expect("pass"), 1, "only the new endpoint starts");
        delivered_within(&app, &fast_id, Duration::from_secs(1)).await;
        let arrived = fast.hits()[0].arrived.duration_since(queued);
        assert!(arrived < Duration::from_secs(1), "the fast endpoint got its message {arrived:?} after it was queued");
        for (receiver, id) in slow.iter().zip(&slow_ids) {
            assert!(receiver.hits()[0].answered.is_none(), "{id}: still waiting for its receiver");
            let message = stored(&app, id).await;
            assert_eq!((message.status.as_str(), message.attempts), ("pending", 1), "{id}: in flight");
        }
        assert_eq!(worker.running(), 3, "the slow lanes are still running");

        // The slow receivers answer: their messages are delivered too.
        for receiver in &slow {
            receiver.open();
        }
        assert_eq!(finish(&mut lanes).await, 4);
        for id in &slow_ids {
            assert_eq!(stored(&app, id).await.status, "delivered", "{id}");
        }
        assert_eq!(worker.running(), 0);
        assert_eq!(worker.start_due(&app.state, app.now(), &mut lanes).await.expect("pass"), 0, "nothing left");
    })
    .await
    .expect("the test ran within its bound");
}

/// One pass (`run_due`, as the tests and one-off runs use it) sends to every endpoint at once
/// and answers when all are done. The slow endpoints' backlog (75 older messages, more than a
/// pass used to take) does not push the fast endpoint's message out of the pass.
async fn one_pass_sends_to_every_endpoint_at_once(app: TestApp) {
    tokio::time::timeout(BOUND, async {
        let slow = [Receiver::slow().await, Receiver::slow().await, Receiver::slow().await];
        let fast = Receiver::fast().await;
        let now = app.now();
        let mut slow_ids = Vec::new();
        for (i, receiver) in slow.iter().enumerate() {
            let endpoint = endpoint_of_a_new_account(&app, &format!("slow{i}"), &receiver.url).await;
            // The slow messages are older: an outbox sending one at a time took them first.
            for n in 0..BACKLOG {
                let at = now - chrono::Duration::seconds(100) + chrono::Duration::seconds(i64::try_from(n).expect("n"));
                slow_ids.push(queue(&app, &endpoint, &format!("msg_slow{i}_{n:02}"), at).await);
            }
        }
        let fast_endpoint = endpoint_of_a_new_account(&app, "fast", &fast.url).await;
        let fast_id = queue(&app, &fast_endpoint, "msg_fast", now).await;

        let began = Instant::now();
        let state = app.state.clone();
        let pass = tokio::spawn(async move { delivering::run_due(&state, now).await });
        delivered_within(&app, &fast_id, Duration::from_secs(1)).await;
        assert!(fast.hits()[0].arrived.duration_since(began) < Duration::from_secs(1));
        for receiver in &slow {
            receiver.wait_for(1, Duration::from_secs(5)).await;
            assert_eq!(receiver.hits().len(), 1, "one at a time to each endpoint");
        }
        for id in &slow_ids {
            assert_eq!(stored(&app, id).await.status, "pending", "{id}: in flight or waiting");
        }
        assert!(!pass.is_finished(), "the pass waits for its lanes");
        for receiver in &slow {
            receiver.open();
        }
        assert_eq!(pass.await.expect("pass ran").expect("pass"), 3 * BACKLOG + 1);
        for id in &slow_ids {
            assert_eq!(stored(&app, id).await.status, "delivered", "{id}");
        }
        for (i, receiver) in slow.iter().enumerate() {
            let order: Vec<String> = receiver.hits().into_iter().map(|h| h.id).collect();
            let queued: Vec<String> = (0..BACKLOG).map(|n| format!("msg_slow{i}_{n:02}")).collect();
            assert_eq!(order, queued, "each endpoint got its messages in the order they were queued");
            assert_eq!(receiver.peak(), 1);
        }
    })
    .await
    .expect("the test ran within its bound");
}

/// The bound is global: with two places, the third slow endpoint waits for a place, and takes
/// the first that frees.
async fn at_most_the_configured_number_of_lanes_run_at_once(app: TestApp) {
    tokio::time::timeout(BOUND, async {
        let slow = [Receiver::slow().await, Receiver::slow().await, Receiver::slow().await];
        let now = app.now();
        for (i, receiver) in slow.iter().enumerate() {
            let endpoint = endpoint_of_a_new_account(&app, &format!("slow{i}"), &receiver.url).await;
            queue(&app, &endpoint, &format!("msg_slow{i}"), now + chrono::Duration::seconds(i64::try_from(i).expect("i"))).await;
        }
        let worker = delivering::Worker::new(2);
        let mut lanes = delivering::Lanes::new();
        let at = now + chrono::Duration::seconds(5);
        assert_eq!(worker.start_due(&app.state, at, &mut lanes).await.expect("pass"), 2, "two places");
        slow[0].wait_for(1, Duration::from_secs(5)).await;
        slow[1].wait_for(1, Duration::from_secs(5)).await;
        assert_eq!(worker.start_due(&app.state, at, &mut lanes).await.expect("pass"), 0, "no place is free");
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(slow[2].hits().is_empty(), "the third waits for a place");

        slow[0].open();
        assert_eq!(lanes.join_next().await.expect("a lane").expect("ran").expect("writes"), 1);
        assert_eq!(worker.start_due(&app.state, at, &mut lanes).await.expect("pass"), 1, "the freed place is taken");
        slow[2].wait_for(1, Duration::from_secs(5)).await;
        slow[1].open();
        slow[2].open();
        assert_eq!(finish(&mut lanes).await, 2);
        assert_eq!(worker.running(), 0);
    })
    .await
    .expect("the test ran within its bound");
}

/// Two messages to one endpoint: the later is sent once the earlier has been answered, never
/// beside it, in one pass or across passes; an earlier message that fails is scheduled for
/// retry and the later one goes on.
async fn messages_to_one_endpoint_go_in_order_one_at_a_time(app: TestApp) {
    tokio::time::timeout(BOUND, async {
        // One pass: the receiver takes 300 ms over each answer.
        let receiver = Receiver::start(Duration::from_millis(300), vec![200]).await;
        let endpoint = endpoint_of_a_new_account(&app, "ordered", &receiver.url).await;
        let now = app.now();
        // Ids that sort the other way round: the order is the queue's, not the ids'.
        let first = queue(&app, &endpoint, "msg_z_first", now - chrono::Duration::seconds(2)).await;
        let second = queue(&app, &endpoint, "msg_a_second", now - chrono::Duration::seconds(1)).await;
        assert_eq!(delivering::run_due(&app.state, now).await.expect("pass"), 2);
        let hits = receiver.hits();
        assert_eq!(hits.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(), [first.as_str(), second.as_str()]);
        assert!(hits[0].answered.is_some_and(|answered| hits[1].arrived >= answered), "the second waited for the first's answer");
        assert_eq!(receiver.peak(), 1, "one at a time");

        // Across passes, as the background loop runs them: while the endpoint's lane is busy, a
        // message queued for it waits, though places are free.
        let gated = Receiver::slow().await;
        let endpoint = endpoint_of_a_new_account(&app, "gated", &gated.url).await;
        let worker = delivering::Worker::configured(&app.state);
        let mut lanes = delivering::Lanes::new();
        let third = queue(&app, &endpoint, "msg_third", app.now()).await;
        assert_eq!(worker.start_due(&app.state, app.now(), &mut lanes).await.expect("pass"), 1);
        gated.wait_for(1, Duration::from_secs(5)).await;
        let fourth = queue(&app, &endpoint, "msg_fourth", app.now()).await;
        assert_eq!(worker.start_due(&app.state, app.now(), &mut lanes).await.expect("pass"), 0, "the endpoint is being sent to");
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(gated.hits().len(), 1, "the fourth is not sent beside the third");
        gated.open();
        assert_eq!(finish(&mut lanes).await, 1);
        assert_eq!(worker.start_due(&app.state, app.now(), &mut lanes).await.expect("pass"), 1, "now it goes");
        assert_eq!(finish(&mut lanes).await, 1);
        assert_eq!(gated.hits().iter().map(|h| h.id.as_str()).collect::<Vec<_>>(), [third.as_str(), fourth.as_str()]);
        assert_eq!(gated.peak(), 1);

        // A failed earlier message is scheduled for retry; the later one goes on in the same pass.
        let failing = Receiver::start(Duration::ZERO, vec![503, 200]).await;
        let endpoint = endpoint_of_a_new_account(&app, "failing", &failing.url).await;
        let now = app.now();
        let fifth = queue(&app, &endpoint, "msg_fifth", now - chrono::Duration::seconds(2)).await;
        let sixth = queue(&app, &endpoint, "msg_sixth", now - chrono::Duration::seconds(1)).await;
        assert_eq!(delivering::run_due(&app.state, now).await.expect("pass"), 2);
        assert_eq!(failing.hits().iter().map(|h| h.id.as_str()).collect::<Vec<_>>(), [fifth.as_str(), sixth.as_str()]);
        let (fifth, sixth) = (stored(&app, &fifth).await, stored(&app, &sixth).await);
        assert_eq!((fifth.status.as_str(), fifth.attempts), ("pending", 1), "waits for its retry");
        assert!(fifth.next_attempt_at > now + chrono::Duration::seconds(59));
        assert_eq!(sixth.status, "delivered");
    })
    .await
    .expect("the test ran within its bound");
}
