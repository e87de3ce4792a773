//! Makes the surface table (`src/surface_vi.rs`) and writes it to `OUT_DIR/surface.bin`, which
//! the library embeds (`src/surface.rs`).

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
}
