//! Makes the surface table (`src/surface_vi.rs`) and writes it to `OUT_DIR/surface.bin`, which
//! the library embeds (`src/surface.rs`), and the four tables of a well inside the playfield
//! (`surface-split0.bin` to `surface-split3.bin`).

#[path = "src/surface_vi.rs"]
#[allow(dead_code)]
mod surface_vi;

fn main() {
    println!("cargo:rerun-if-changed=src/surface_vi.rs");
    println!("cargo:rerun-if-changed=build.rs");
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    let bytes = surface_vi::quantize(&surface_vi::compute(surface_vi::HORIZON));
    std::fs::write(std::path::Path::new(&out).join("surface.bin"), bytes)
        .expect("write the surface table");
    // The tables of a well inside the playfield, columns 1-4 (5-8 read them mirrored).
    for bar in 0..4 {
        let bytes =
            surface_vi::quantize(&surface_vi::compute_split(surface_vi::HORIZON, Some(bar)));
        std::fs::write(
            std::path::Path::new(&out).join(format!("surface-split{bar}.bin")),
            bytes,
        )
        .expect("write a split surface table");
    }
}
