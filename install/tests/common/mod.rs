//! Test helpers: skill trees, git repositories made with the system git, and a loopback
//! HTTP server.

#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};

/// Write `files` (relative path → content) under `root`.
pub fn write_tree(root: &Path, files: &[(&str, &str)]) {
    for (path, content) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
}

/// A SKILL.md for `name`.
pub fn skill_md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill.\n---\n# {name}\n")
}

pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A repository at `dir` with `files` committed on `main`; returns the commit.
pub fn git_repo(dir: &Path, files: &[(&str, &str)]) -> String {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "-q", "-b", "main"]);
    commit(dir, files, "initial")
}

pub fn commit(dir: &Path, files: &[(&str, &str)], message: &str) -> String {
    write_tree(dir, files);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message]);
    git(dir, &["rev-parse", "HEAD"])
}

pub fn file_url(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// A loopback HTTP server answering GET for the paths in its table (404 otherwise), or a
/// 302 for the paths given to [`Server::redirect`].
pub struct Server {
    pub base: String,
    routes: Arc<Mutex<HashMap<String, Vec<u8>>>>,
    redirects: Arc<Mutex<HashMap<String, String>>>,
    pub hits: Arc<Mutex<Vec<String>>>,
    /// Each request's head (request line and headers), in arrival order.
    pub requests: Arc<Mutex<Vec<String>>>,
}

impl Server {
    pub fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let routes: Arc<Mutex<HashMap<String, Vec<u8>>>> = Arc::default();
        let redirects: Arc<Mutex<HashMap<String, String>>> = Arc::default();
        let hits: Arc<Mutex<Vec<String>>> = Arc::default();
        let requests: Arc<Mutex<Vec<String>>> = Arc::default();
        let (r, h) = (routes.clone(), hits.clone());
        let (rd, rq) = (redirects.clone(), requests.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut buf = Vec::new();
                let mut chunk = [0u8; 1024];
                while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => buf.extend_from_slice(&chunk[..n]),
                    }
                }
                let request = String::from_utf8_lossy(&buf);
                let path = request.split_whitespace().nth(1).unwrap_or("/").to_string();
                h.lock().unwrap().push(path.clone());
                rq.lock().unwrap().push(request.to_string());
                let body = r.lock().unwrap().get(&path).cloned();
                let moved = rd.lock().unwrap().get(&path).cloned();
                let response = match (body, moved) {
                    (_, Some(location)) => format!(
                        "HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    )
                    .into_bytes(),
                    (body, None) => match body {
                    Some(body) => {
                        let mut head = format!(
                            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                            body.len()
                        )
                        .into_bytes();
                        head.extend(body);
                        head
                    }
                    None => {
                        b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                            .to_vec()
                    }
                    },
                };
                let _ = stream.write_all(&response);
            }
        });
        Server {
            base,
            routes,
            redirects,
            hits,
            requests,
        }
    }

    /// Answer GET `path` with a 302 to `location`.
    pub fn redirect(&self, path: &str, location: &str) {
        self.redirects
            .lock()
            .unwrap()
            .insert(path.to_string(), location.to_string());
    }

    /// The heads of the requests for `path`.
    pub fn requests_for(&self, path: &str) -> Vec<String> {
        let line = format!("GET {path} ");
        self.requests
            .lock()
            .unwrap()
            .iter()
            .filter(|r| r.starts_with(&line))
            .cloned()
            .collect()
    }

    pub fn serve(&self, path: &str, body: impl Into<Vec<u8>>) {
        self.routes
            .lock()
            .unwrap()
            .insert(path.to_string(), body.into());
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

/// A .tar.gz of `files` (regular files only).
pub fn tar_gz(files: &[(&str, &str)]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut builder = tar::Builder::new(gz);
    for (path, content) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(content.len() as u64);
        header.set_mode(if path.ends_with(".sh") { 0o755 } else { 0o644 });
        header.set_entry_type(tar::EntryType::Regular);
        header.set_path(path).unwrap();
        header.set_cksum();
        builder.append(&header, content.as_bytes()).unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap()
}

/// A .tar.gz with one raw entry whose name is written byte for byte (so `..` and absolute
/// names the tar crate's own writer refuses can be made), after a valid SKILL.md.
pub fn evil_tar(name: &str, kind: tar::EntryType, link: Option<&str>) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut builder = tar::Builder::new(gz);
    let ok = skill_md("evil");
    let mut header = tar::Header::new_gnu();
    header.set_size(ok.len() as u64);
    header.set_mode(0o644);
    header.set_path("evil/SKILL.md").unwrap();
    header.set_cksum();
    builder.append(&header, ok.as_bytes()).unwrap();
    let mut header = tar::Header::new_old();
    {
        let old = header.as_old_mut();
        old.name[..name.len()].copy_from_slice(name.as_bytes());
        if let Some(link) = link {
            old.linkname[..link.len()].copy_from_slice(link.as_bytes());
        }
    }
    header.set_entry_type(kind);
    header.set_mode(0o644);
    let body: &[u8] = if kind == tar::EntryType::Regular {
        b"pwned"
    } else {
        b""
    };
    header.set_size(body.len() as u64);
    header.set_cksum();
    builder.append(&header, body).unwrap();
    builder.into_inner().unwrap().finish().unwrap()
}

pub fn sha256(bytes: &[u8]) -> String {
    skilldeck::sha256_hex(bytes)
}
