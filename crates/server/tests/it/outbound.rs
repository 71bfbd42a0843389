//! The guard on requests to addresses users give us: a list of hostile URLs aimed at a local
//! listener gets no connection at all, while the same listener, allowed for local development,
//! is reached (so the count would see a connection).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use strikeline_server::foundation::outbound::{Guard, post, resolve};

async fn counting_listener() -> (u16, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                use tokio::io::{AsyncReadExt, AsyncWriteExt};
                let mut buf = vec![0u8; 4096];
                let _ = socket.read(&mut buf).await;
                let _ = socket.write_all(b"HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:1/\r\ncontent-length: 2\r\n\r\nok").await;
            });
        }
    });
    (port, accepted)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_urls_get_no_connection() {
    let (port, accepted) = counting_listener().await;
    // Plain http allowed (as in local development) so that only the address decides.
    let guard = Guard { allow_http: true, ..Guard::default() };
    let hostile = [
        format!("http://127.0.0.1:{port}/"),
        format!("http://2130706433:{port}/"),
        format!("http://0x7f000001:{port}/"),
        format!("http://0177.0.0.1:{port}/"),
        format!("http://0x7f.0.0.1:{port}/"),
        format!("http://127.1:{port}/"),
        format!("http://localhost:{port}/"),
        format!("http://LocalHost.:{port}/"),
        format!("http://api.localhost:{port}/"),
        format!("http://[::ffff:127.0.0.1]:{port}/"),
        format!("http://[::ffff:7f00:1]:{port}/"),
        format!("http://[::1]:{port}/"),
        format!("http://[::127.0.0.1]:{port}/"),
        format!("http://0.0.0.0:{port}/"),
        format!("http://0:{port}/"),
        format!("https://127.0.0.1:{port}/"),
        format!("http://user:pass@example.com:{port}/"),
        format!("ftp://127.0.0.1:{port}/"),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
        "http://metadata.google.internal/computeMetadata/v1/".to_owned(),
        "http://[fd00:ec2::254]/latest/meta-data/".to_owned(),
        "http://10.0.0.1/".to_owned(),
        "http://192.168.0.1/".to_owned(),
        "http://100.100.100.200/".to_owned(),
    ];
    for url in &hostile {
        match resolve(url, &guard).await {
            Err(_) => {}
            Ok(target) => panic!("{url} must be refused, got {target:?}"),
        }
    }
    assert_eq!(accepted.load(Ordering::SeqCst), 0, "no hostile URL reached the listener");

    // Positive control: allowed for local development, the listener is reached once, and its
    // redirect is not followed.
    let local = Guard { allow_http: true, allow_private: true, ..Guard::default() };
    let target = resolve(&format!("http://127.0.0.1:{port}/hook"), &local).await.expect("allowed locally");
    let delivery = post(&target, &[("webhook-id", "msg_1".into())], b"{}".to_vec(), &local).await.expect("delivered");
    assert_eq!(delivery.status, 302, "a redirect is answered, not followed");
    assert_eq!(accepted.load(Ordering::SeqCst), 1);
}
