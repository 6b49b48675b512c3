#include "impetus/render/scene_lighting.h"

#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>

#include <osg/Light>
#include <osg/Texture2D>

namespace impetus::render {
namespace {

/// The sun: directional, 48 degrees high from -y and a little -x: beside and behind a robot
/// that drives along +x as the scenes place them, so its shadow and its arm's fall to its left,
/// in view of a camera behind it, and the faces it looks at (a door, a valve) still get some.
osg::ref_ptr<osg::LightSource> makeSun() {
  osg::ref_ptr<osg::Light> light = new osg::Light(0);
  light->setPosition({-0.3f, -0.6f, 0.75f, 0.0f});
  light->setDiffuse({0.8f, 0.8f, 0.77f, 1.0f});
  light->setAmbient({0.45f, 0.45f, 0.48f, 1.0f});
  osg::ref_ptr<osg::LightSource> source = new osg::LightSource;
  source->setLight(light);
  // RELATIVE_RF under no transform: the position is world, moved by each camera's view (an
  // ABSOLUTE_RF light is fixed to the eye: it would turn with the camera).
  source->setReferenceFrame(osg::LightSource::RELATIVE_RF);
  return source;
}

// The program, built from one source for what is on (makeProgram). At High every pixel is lit
// by the sun with the material's gloss; at Low and Off the sun lights the vertices as the
// fixed-function pipeline does, and the shadow test and the lamps (diffuse) are per pixel,
// which under llvmpipe costs far less (docs/benchmarks.md).

/// Vertex stage: eye-space position and normal for the fragment stage, the material's colours
/// (or the vertex colour under colour material), the base texture's coordinates through its
/// matrix (a belt's moving treads) and the shadow map's from its eye-linear planes (what the
/// fixed-function texgen computes for the shadow technique).
constexpr const char* kVertexShader = R"(
uniform bool colourMaterial;
varying vec3 eyePosition;
varying vec3 eyeNormal;
varying vec4 diffuseColour;
varying vec3 ambientColour;
#ifndef PER_PIXEL_SUN
varying vec3 sunLight;  // the sun's diffuse and gloss at this vertex, before shadows
#endif
void main(void) {
  vec4 ec = gl_ModelViewMatrix * gl_Vertex;
  eyePosition = ec.xyz;
  eyeNormal = gl_NormalMatrix * gl_Normal;
  diffuseColour = colourMaterial ? gl_Color : gl_FrontMaterial.diffuse;
  vec3 ambient = colourMaterial ? gl_Color.rgb : gl_FrontMaterial.ambient.rgb;
  ambientColour = (gl_LightModel.ambient.rgb + gl_LightSource[0].ambient.rgb) * ambient;
#ifndef PER_PIXEL_SUN
  vec3 n = normalize(eyeNormal);
  vec3 toSun = normalize(gl_LightSource[0].position.xyz);
  float cosine = max(dot(n, toSun), 0.0);
  float gloss = cosine > 0.0 ? pow(max(dot(n, normalize(toSun - normalize(eyePosition))), 0.0),
                                   max(gl_FrontMaterial.shininess, 1.0)) : 0.0;
  sunLight = gl_LightSource[0].diffuse.rgb * diffuseColour.rgb * cosine +
             gl_LightSource[0].specular.rgb * gl_FrontMaterial.specular.rgb * gloss;
#endif
  gl_FrontColor = gl_Color;
  gl_TexCoord[0] = gl_TextureMatrix[0] * gl_MultiTexCoord0;
  gl_TexCoord[1] = vec4(dot(ec, gl_EyePlaneS[1]), dot(ec, gl_EyePlaneT[1]),
                        dot(ec, gl_EyePlaneR[1]), dot(ec, gl_EyePlaneQ[1]));
  gl_Position = ftransform();
}
)";

/// Fragment stage: the sun (Blinn-Phong per pixel, or as the vertices give it) under its
/// shadow, the lamps (soft-edged cones falling to half at their range), the base texture, then
/// fog. What a program does is compiled in (SHADOW_TAPS, LAMPS, FOG), not chosen by uniforms:
/// llvmpipe runs both sides of every branch. OSG's own shadow shader indexes gl_TexCoord with a
/// uniform, which Mesa refuses; the units are constants here.
constexpr const char* kFragmentShader = R"(
uniform sampler2D baseTexture;
uniform sampler2DShadow shadowTexture0;
uniform float shadowTexel;
varying vec3 eyePosition;
varying vec3 eyeNormal;
varying vec4 diffuseColour;
varying vec3 ambientColour;
#ifndef PER_PIXEL_SUN
varying vec3 sunLight;
#endif

#if SHADOW_TAPS > 0
float sunVisible(void) {
  // Compared a little towards the sun (2e-3 of the map's depth range) against acne.
  vec4 c = gl_TexCoord[1] - vec4(0.0, 0.0, 0.002 * gl_TexCoord[1].w, 0.0);
  float lit = shadow2DProj(shadowTexture0, c).r;
#if SHADOW_TAPS == 4
  float d = shadowTexel * c.w;
  lit = 0.25 * (lit + shadow2DProj(shadowTexture0, c + vec4(d, 0.0, 0.0, 0.0)).r +
                shadow2DProj(shadowTexture0, c + vec4(0.0, d, 0.0, 0.0)).r +
                shadow2DProj(shadowTexture0, c + vec4(d, d, 0.0, 0.0)).r);
#endif
  // A face turned away from the sun gets no diffuse light anyway: no shadow test on it (its
  // own depth is what the casting pass stored, front faces culled: stripes). Its slope in the
  // shadow map's space, where depth grows away from the sun, says which way it faces.
  vec3 p = gl_TexCoord[1].xyz / gl_TexCoord[1].w;
  float towardsSun = cross(dFdx(p), dFdy(p)).z;
  if (!gl_FrontFacing) towardsSun = -towardsSun;
  return towardsSun <= 0.0 ? 1.0 : lit;
}
#endif

#if LAMPS > 0
vec3 lamp(gl_LightSourceParameters l, vec3 n) {
  vec3 toLamp = l.position.xyz - eyePosition;
  float distance = length(toLamp);
  toLamp /= distance;
  float axisCosine = dot(-toLamp, normalize(l.spotDirection));
  float cone = smoothstep(l.spotCosCutoff, mix(l.spotCosCutoff, 1.0, 0.35), axisCosine);
  float falloff = cone / (1.0 + l.quadraticAttenuation * distance * distance);
  return falloff * max(dot(n, toLamp), 0.0) * l.diffuse.rgb * diffuseColour.rgb;
}
#endif

void main(void) {
  vec4 texel = texture2D(baseTexture, gl_TexCoord[0].xy);
  vec3 n = normalize(eyeNormal);
#if SHADOW_TAPS > 0
  float visible = sunVisible();
#else
  float visible = 1.0;
#endif
#ifdef PER_PIXEL_SUN
  vec3 toSun = normalize(gl_LightSource[0].position.xyz);
  float cosine = max(dot(n, toSun), 0.0);
  float gloss = cosine > 0.0 ? pow(max(dot(n, normalize(toSun - normalize(eyePosition))), 0.0),
                                   max(gl_FrontMaterial.shininess, 1.0)) : 0.0;
  vec3 sunLight = gl_LightSource[0].diffuse.rgb * diffuseColour.rgb * cosine +
                  gl_LightSource[0].specular.rgb * gl_FrontMaterial.specular.rgb * gloss;
#endif
  vec3 rgb = ambientColour + visible * sunLight;
#if LAMPS > 0
  rgb += lamp(gl_LightSource[1], n);
#endif
#if LAMPS > 1
  rgb += lamp(gl_LightSource[2], n);
#endif
#if LAMPS > 2
  rgb += lamp(gl_LightSource[3], n);
#endif
#if LAMPS > 3
  rgb += lamp(gl_LightSource[4], n);
#endif
  rgb *= texel.rgb;
#ifdef FOG
  float clear = clamp((gl_Fog.end - length(eyePosition)) * gl_Fog.scale, 0.0, 1.0);
  rgb = mix(gl_Fog.color.rgb, rgb, clear);
#endif
  gl_FragColor = vec4(rgb, diffuseColour.a * texel.a);
}
)";

/// The program for this many lamps, shadow taps (0: no shadows; 4: High, whose sun is lit per
/// pixel too) and fog.
osg::ref_ptr<osg::Program> makeProgram(int lamps, int shadowTaps, bool fog) {
  std::string header = "#version 120\n#define LAMPS " + std::to_string(lamps) +
                       "\n#define SHADOW_TAPS " + std::to_string(shadowTaps) + "\n";
  if (shadowTaps == 4) header += "#define PER_PIXEL_SUN 1\n";
  if (fog) header += "#define FOG 1\n";
  osg::ref_ptr<osg::Program> program = new osg::Program;
  program->setName("impetus_lighting_" + std::to_string(lamps) + "_lamps_" +
                   std::to_string(shadowTaps) + "_taps" + (fog ? "_fog" : ""));
  program->addShader(new osg::Shader(osg::Shader::VERTEX, header + kVertexShader));
  program->addShader(new osg::Shader(osg::Shader::FRAGMENT, header + kFragmentShader));
  return program;
}

/// White, for what the program samples on unit 0 where a body has no texture of its own.
osg::ref_ptr<osg::Texture2D> whiteTexture() {
  osg::ref_ptr<osg::Image> image = new osg::Image;
  image->allocateImage(1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE);
  *reinterpret_cast<std::uint32_t*>(image->data()) = 0xFFFFFFFFu;
  osg::ref_ptr<osg::Texture2D> texture = new osg::Texture2D(image);
  // Repeated and unfiltered: OSG's default GL_CLAMP blends a 1-texel image with the (black)
  // border towards every face's edges.
  texture->setWrap(osg::Texture::WRAP_S, osg::Texture::REPEAT);
  texture->setWrap(osg::Texture::WRAP_T, osg::Texture::REPEAT);
  texture->setFilter(osg::Texture::MIN_FILTER, osg::Texture::NEAREST);
  texture->setFilter(osg::Texture::MAG_FILTER, osg::Texture::NEAREST);
  return texture;
}

}  // namespace

SceneLighting::SceneLighting(osg::Group* scene)
    : scene_(scene), lampGroup_(new osg::Group), white_(whiteTexture()), fog_(new osg::Fog) {
  scene_->addChild(makeSun());
  lampGroup_->setName("lamps");
  scene_->addChild(lampGroup_);
  osg::StateSet* state = scene_->getOrCreateStateSet();
  // Lit by the sun (the viewer's NO_LIGHT mode leaves lighting off: flat colours).
  state->setMode(GL_LIGHTING, osg::StateAttribute::ON);
  state->setMode(GL_LIGHT0, osg::StateAttribute::ON);
  state->getOrCreateUniform("baseTexture", osg::Uniform::SAMPLER_2D)->set(0);
  state->getOrCreateUniform("shadowTexture0", osg::Uniform::SAMPLER_2D_SHADOW)->set(1);
  state->getOrCreateUniform("colourMaterial", osg::Uniform::BOOL)->set(false);
  state->getOrCreateUniform("shadowTexel", osg::Uniform::FLOAT)->set(0.0f);
  fog_->setMode(osg::Fog::LINEAR);
  for (int k = 0; k < int(kMaxLights); ++k) {
    osg::ref_ptr<osg::Light> light = new osg::Light(k + 1);
    light->setAmbient({0, 0, 0, 1});
    light->setSpotExponent(2.0f);
    light->setConstantAttenuation(1.0f);
    light->setLinearAttenuation(0.0f);
    osg::ref_ptr<osg::LightSource> source = new osg::LightSource;
    source->setLight(light);
    source->setReferenceFrame(osg::LightSource::RELATIVE_RF);  // world, as the sun's
    source->setName("lamp" + std::to_string(k + 1));
    lampGroup_->addChild(source);
    slots_.push_back(source);
    state->setMode(GLenum(GL_LIGHT1 + k), osg::StateAttribute::OFF);
  }
}

void SceneLighting::markColourMaterial(osg::StateSet& state) {
  state.getOrCreateUniform("colourMaterial", osg::Uniform::BOOL)->set(true);
}

void SceneLighting::markUnlit(osg::StateSet& state) {
  // The fixed-function pipeline whatever the scene's program: colour times texture.
  state.setAttributeAndModes(new osg::Program,
                             osg::StateAttribute::ON | osg::StateAttribute::PROTECTED);
}

void SceneLighting::setShadows(bool on, float texelStep) {
  shadowTaps_ = !on ? 0 : texelStep > 0.0f ? 4 : 1;
  scene_->getOrCreateStateSet()
      ->getOrCreateUniform("shadowTexel", osg::Uniform::FLOAT)
      ->set(texelStep);
  choosePipeline();
}

void SceneLighting::setLamps(const std::vector<LightDesc>& lamps) {
  lamps_ = lamps;
  placeLamps({});
}

void SceneLighting::placeLamps(const std::vector<LampState>& lamps) {
  int lit = 0;
  for (size_t i = 0; i < lamps.size() && i < lamps_.size() && size_t(lit) < kMaxLights; ++i) {
    if (!lamps[i].on) continue;
    const LightDesc& d = lamps_[i];
    osg::Light* light = slots_[size_t(lit)]->getLight();
    light->setPosition(osg::Vec4(lamps[i].position, 1.0f));
    light->setDirection(lamps[i].direction);
    light->setSpotCutoff(float(d.halfAngle * 180.0 / std::numbers::pi));
    light->setQuadraticAttenuation(float(1.0 / (d.range * d.range)));  // half at the range
    // As bright as the sun on a face square to the beam at 1.2 m, dimmer beyond.
    const osg::Vec4 colour(1.2f * d.colour[0], 1.2f * d.colour[1], 1.2f * d.colour[2], 1.0f);
    light->setDiffuse(colour);
    light->setSpecular(colour * 0.5f);
    ++lit;
  }
  if (lit == lampsLit_) return;
  osg::StateSet* state = scene_->getOrCreateStateSet();
  // A slot without a lamp costs the fixed-function pipeline nothing.
  for (int k = 0; k < int(kMaxLights); ++k)
    state->setMode(GLenum(GL_LIGHT1 + k),
                   k < lit ? osg::StateAttribute::ON : osg::StateAttribute::OFF);
  lampsLit_ = lit;
  choosePipeline();
}

void SceneLighting::setFog(const std::optional<FogDesc>& fog) {
  osg::StateSet* state = scene_->getOrCreateStateSet();
  fogOn_ = bool(fog);
  if (fog) {
    fog_->setStart(float(fog->start));
    fog_->setEnd(float(fog->end));
    fog_->setColor({fog->colour[0], fog->colour[1], fog->colour[2], 1.0f});
    state->setAttributeAndModes(fog_, osg::StateAttribute::ON);
  } else {
    state->removeAttribute(fog_.get());
    state->removeMode(GL_FOG);
  }
  choosePipeline();
}

void SceneLighting::choosePipeline() {
  const Pipeline pipeline = shadowTaps_ > 0 ? Pipeline::Shadowed
                            : lampsLit_ > 0 ? Pipeline::Lamps
                                            : Pipeline::FixedFunction;
  const int key = lampsLit_ + 8 * shadowTaps_ + 64 * int(fogOn_);
  if (pipeline == pipeline_ && key == programKey_) return;
  pipeline_ = pipeline;
  programKey_ = key;
  osg::StateSet* state = scene_->getOrCreateStateSet();
  if (program_) state->removeAttribute(program_.get());
  program_ = nullptr;
  if (pipeline == Pipeline::FixedFunction) {
    state->removeTextureAttribute(0, osg::StateAttribute::TEXTURE);
    return;
  }
  osg::ref_ptr<osg::Program>& program = programs_[key];
  if (!program) program = makeProgram(lampsLit_, shadowTaps_, fogOn_);
  program_ = program;
  state->setAttributeAndModes(program_);
  state->setTextureAttributeAndModes(0, white_);
}

}  // namespace impetus::render
