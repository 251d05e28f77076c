//! The network's file format: safetensors, with the layers named and shaped as PyTorch's
//! `nn.Linear` names and shapes them (`fc1.weight` is `hidden × inputs`, `fc1.bias`, `fc2.*`,
//! `out.*`), and the metadata saying the encoding, the family and the board. The metadata is
//! written in key order, so that the same network always gives the same bytes.

use std::collections::HashMap;

use safetensors::tensor::{Dtype, SafeTensors, TensorView};

use crate::eval::net::encode::{self, Encoding};
use crate::eval::net::mlp::{self, Mlp};
use crate::eval::net::{NetError, Network};

impl Network {
    /// The network as a safetensors file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let l = [
            ("fc1", &self.mlp.fc1),
            ("fc2", &self.mlp.fc2),
            ("out", &self.mlp.out),
        ];
        let bytes: Vec<(String, Vec<usize>, Vec<u8>)> = l
            .iter()
            .flat_map(|(name, layer)| {
                [
                    (
                        format!("{name}.weight"),
                        vec![layer.outputs, layer.inputs],
                        le_bytes(&layer.weight),
                    ),
                    (
                        format!("{name}.bias"),
                        vec![layer.outputs],
                        le_bytes(&layer.bias),
                    ),
                ]
            })
            .collect();
        let views = bytes.iter().map(|(name, shape, data)| {
            (
                name.clone(),
                TensorView::new(Dtype::F32, shape.clone(), data).expect("sizes agree"),
            )
        });
        canonical(
            safetensors::serialize(views, Some(self.to_metadata()))
                .expect("a small network serialises"),
        )
    }

    /// The file's metadata: what the network was trained on, and its encoding.
    pub(crate) fn to_metadata(&self) -> HashMap<String, String> {
        let mut meta = self.metadata.clone();
        meta.insert("format".into(), "qasab-net".into());
        meta.insert("encoding".into(), self.encoding.name.into());
        meta.insert("family".into(), self.family.clone());
        meta.insert(
            "columns".into(),
            match self.encoding.columns {
                encode::ANY_BOARD => "any".into(),
                c => c.to_string(),
            },
        );
        meta.insert("activation".into(), "relu,relu,tanh".into());
        meta
    }

    /// Reads a network from a safetensors file's bytes.
    ///
    /// # Errors
    /// [`NetError`] for a file that is not safetensors, lacks a layer, or does not say its
    /// encoding, family and board.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let tensors =
            SafeTensors::deserialize(bytes).map_err(|e| NetError::Format(e.to_string()))?;
        let (_, header) =
            SafeTensors::read_metadata(bytes).map_err(|e| NetError::Format(e.to_string()))?;
        let mut metadata = header.metadata().clone().unwrap_or_default();
        let mut take = |key: &str| {
            metadata
                .remove(key)
                .ok_or_else(|| NetError::Metadata(format!("no \"{key}\" in the metadata")))
        };
        let encoding = take("encoding")?;
        let family = take("family")?;
        let columns = take("columns")?;
        let _ = take("format");
        let _ = take("activation");
        metadata.remove("checkpoint");
        let Some(name) = encode::ENCODINGS.into_iter().find(|&e| e == encoding) else {
            return Err(NetError::Metadata(format!(
                "unknown encoding \"{encoding}\" (this version reads {})",
                encode::ENCODINGS.join(", ")
            )));
        };
        let columns: u8 = match columns.as_str() {
            "any" => encode::ANY_BOARD,
            c => c
                .parse()
                .ok()
                .filter(|&c| c != encode::ANY_BOARD)
                .ok_or_else(|| {
                    NetError::Metadata(format!("columns \"{columns}\" is not a number or \"any\""))
                })?,
        };
        let layer = |name: &str| -> Result<mlp::Linear, NetError> {
            let w = tensors
                .tensor(&format!("{name}.weight"))
                .map_err(|_| NetError::Tensor(format!("no tensor {name}.weight")))?;
            let b = tensors
                .tensor(&format!("{name}.bias"))
                .map_err(|_| NetError::Tensor(format!("no tensor {name}.bias")))?;
            if w.dtype() != Dtype::F32 || b.dtype() != Dtype::F32 {
                return Err(NetError::Tensor(format!("{name} is not float32")));
            }
            let (&[outputs, inputs], &[bias]) = (w.shape(), b.shape()) else {
                return Err(NetError::Tensor(format!(
                    "{name}.weight must be 2-dimensional and {name}.bias 1-dimensional"
                )));
            };
            if bias != outputs {
                return Err(NetError::Tensor(format!(
                    "{name}.bias has {bias} values for {outputs} outputs"
                )));
            }
            Ok(mlp::Linear {
                inputs,
                outputs,
                weight: from_le_bytes(w.data()),
                bias: from_le_bytes(b.data()),
            })
        };
        let mlp = Mlp::from_layers(layer("fc1")?, layer("fc2")?, layer("out")?)
            .map_err(NetError::Tensor)?;
        if mlp.fc1.outputs > mlp::MAX_HIDDEN || mlp.fc2.outputs > mlp::MAX_HIDDEN {
            return Err(NetError::Tensor(format!(
                "hidden layers of at most {} units are read",
                mlp::MAX_HIDDEN
            )));
        }
        let encoding = Encoding {
            name,
            columns,
            inputs: mlp.inputs(),
        };
        Ok(Network {
            mlp,
            encoding,
            family,
            metadata,
        })
    }

    /// The largest network or checkpoint file read, in bytes: far above any this crate writes
    /// (the largest network, 512 units over `tab`'s inputs, is a few megabytes, its checkpoint
    /// with Adam's moments three times that), so that a path naming something else fails at
    /// once rather than filling memory.
    pub const MAX_FILE_BYTES: u64 = 64 << 20;

    /// Reads a network from a safetensors file ([`read_file`]).
    ///
    /// # Errors
    /// As [`read_file`], else as [`Network::from_bytes`].
    pub fn load(path: &std::path::Path) -> Result<Network, NetError> {
        Network::from_bytes(&read_file(path)?)
    }

    /// Writes the network to a safetensors file (through a temporary file, so that a stopped
    /// run never leaves half a file).
    ///
    /// # Errors
    /// [`NetError::Io`] if the file cannot be written.
    pub fn save(&self, path: &std::path::Path) -> Result<(), NetError> {
        write_atomically(path, &self.to_bytes())
    }
}

/// The bytes of a network or checkpoint file: a regular file of at most
/// [`Network::MAX_FILE_BYTES`] (not a device or a pipe, which may never end, nor something so
/// large that reading it would fill memory).
///
/// # Errors
/// [`NetError::Io`] if the file cannot be read, is not a regular file or is too large.
pub fn read_file(path: &std::path::Path) -> Result<Vec<u8>, NetError> {
    use std::io::Read;
    let io = |message: String| NetError::Io {
        path: path.display().to_string(),
        message,
    };
    let file = std::fs::File::open(path).map_err(|e| io(e.to_string()))?;
    let meta = file.metadata().map_err(|e| io(e.to_string()))?;
    if !meta.is_file() {
        return Err(io("not a regular file".into()));
    }
    let too_large = || io(format!("larger than {} bytes", Network::MAX_FILE_BYTES));
    if meta.len() > Network::MAX_FILE_BYTES {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(Network::MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io(e.to_string()))?;
    if bytes.len() as u64 > Network::MAX_FILE_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
}

/// A safetensors file with its metadata written in key order, so that the same network gives
/// the same bytes (the writer takes the metadata as a hash map, whose order is random).
pub(crate) fn canonical(bytes: Vec<u8>) -> Vec<u8> {
    let n = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")) as usize;
    let header: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&bytes[8..8 + n]).expect("the writer's header is JSON");
    let mut out = serde_json::Map::new();
    let mut keys: Vec<&String> = header.keys().collect();
    keys.sort();
    for k in keys {
        let v = &header[k];
        let v = match v.as_object() {
            Some(m) if k == "__metadata__" => {
                let sorted: std::collections::BTreeMap<&String, &serde_json::Value> =
                    m.iter().collect();
                serde_json::to_value(sorted).expect("strings")
            }
            _ => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    let mut text = serde_json::to_string(&out).expect("JSON");
    while !text.len().is_multiple_of(8) {
        text.push(' ');
    }
    let mut file = Vec::with_capacity(8 + text.len() + bytes.len() - 8 - n);
    file.extend_from_slice(&(text.len() as u64).to_le_bytes());
    file.extend_from_slice(text.as_bytes());
    file.extend_from_slice(&bytes[8 + n..]);
    file
}

/// Writes `bytes` to `path` through a temporary file beside it, so that a stopped run never
/// leaves half a file.
///
/// # Errors
/// [`NetError::Io`] if the file cannot be written.
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> Result<(), NetError> {
    let io = |e: std::io::Error| NetError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let tmp = path.with_extension("partial");
    std::fs::write(&tmp, bytes).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

pub(crate) fn le_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub(crate) fn from_le_bytes(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
