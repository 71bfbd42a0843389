//! Server-side sessions: live until `expire`, renewed by activity, swept when expired.

use chrono::Duration;
use strikeline_store::Db;
use strikeline_store::sessions::{self, SessionData};

use crate::common::{t0, user};

crate::on_both_engines!(
    a_session_lives_until_it_expires,
    touch_renews_and_delete_ends,
    expired_sessions_are_swept,
    deleting_a_user_ends_their_sessions
);

fn data(user_id: &str) -> SessionData {
    SessionData {
        user_id: user_id.into(),
        created_at: t0(),
        last_seen_at: t0(),
        user_agent: Some("test".into()),
        ip: Some("203.0.113.7".into()),
    }
}

async fn a_session_lives_until_it_expires(db: Db) {
    let ada = user(&db, "ada").await;
    let expire = t0() + Duration::minutes(30);
    sessions::insert(&db, "sid-1", &data(&ada.id), expire).await.expect("insert");

    let live = sessions::find_live(&db, "sid-1", t0()).await.expect("find").expect("live");
    assert_eq!((live.sid.as_str(), live.expire), ("sid-1", expire));
    assert_eq!(live.sess, data(&ada.id), "the JSON reads back as written");
    assert!(sessions::find_live(&db, "sid-1", expire - Duration::milliseconds(1)).await.expect("find").is_some());
    assert!(sessions::find_live(&db, "sid-1", expire).await.expect("find").is_none(), "expired at `expire`");
    assert!(sessions::find_live(&db, "sid-1", expire + Duration::days(1)).await.expect("find").is_none());
    assert!(sessions::find_live(&db, "other", t0()).await.expect("find").is_none());
}

async fn touch_renews_and_delete_ends(db: Db) {
    let ada = user(&db, "ada").await;
    let expire = t0() + Duration::minutes(30);
    sessions::insert(&db, "sid-1", &data(&ada.id), expire).await.expect("insert");

    let seen = t0() + Duration::minutes(20);
    let renewed = SessionData { last_seen_at: seen, ..data(&ada.id) };
    sessions::touch(&db, "sid-1", &renewed, seen + Duration::minutes(30)).await.expect("touch");
    let live = sessions::find_live(&db, "sid-1", expire + Duration::minutes(1)).await.expect("find").expect("renewed");
    assert_eq!(live.sess.last_seen_at, seen);
    assert_eq!(live.expire, seen + Duration::minutes(30));

    sessions::delete(&db, "sid-1").await.expect("delete");
    assert!(sessions::find_live(&db, "sid-1", t0()).await.expect("find").is_none());
    sessions::delete(&db, "sid-1").await.expect("deleting twice is fine");
}

async fn expired_sessions_are_swept(db: Db) {
    let ada = user(&db, "ada").await;
    for (sid, minutes) in [("a", 10), ("b", 20), ("c", 30)] {
        sessions::insert(&db, sid, &data(&ada.id), t0() + Duration::minutes(minutes)).await.expect("insert");
    }
    assert_eq!(sessions::delete_expired(&db, t0()).await.expect("sweep"), 0);
    assert_eq!(sessions::delete_expired(&db, t0() + Duration::minutes(20)).await.expect("sweep"), 2, "expire <= now goes");
    assert!(sessions::find_live(&db, "c", t0()).await.expect("find").is_some());
    assert_eq!(sessions::delete_expired(&db, t0() + Duration::minutes(20)).await.expect("sweep"), 0);
}

async fn deleting_a_user_ends_their_sessions(db: Db) {
    let ada = user(&db, "ada").await;
    sessions::insert(&db, "sid-1", &data(&ada.id), t0() + Duration::hours(1)).await.expect("insert");
    let missing = sessions::insert(&db, "sid-2", &data("no-such-user"), t0() + Duration::hours(1)).await;
    assert!(missing.is_err(), "a session belongs to an existing user");
    strikeline_store::with_db!(&db, pool => {
        sqlx::query("DELETE FROM users WHERE id = $1").bind(&ada.id).execute(pool).await.expect("delete user");
    });
    assert!(sessions::find_live(&db, "sid-1", t0()).await.expect("find").is_none(), "cascaded");
}
